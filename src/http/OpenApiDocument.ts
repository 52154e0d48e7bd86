/**
 * The contract's OpenAPI document with its examples (src/api/Examples.ts, computed by the checks and
 * the report builders), built once on first use: `GET /api` lists its endpoints and `/api/docs`
 * renders it.
 */
import { OpenApi } from "@effect/platform"
import { Api } from "../Api.ts"

let document: OpenApi.OpenAPISpec | undefined

export const openApiDocument = (): OpenApi.OpenAPISpec => (document ??= OpenApi.fromApi(Api))
