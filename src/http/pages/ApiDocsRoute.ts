/**
 * `GET /api/docs`: the OpenAPI document (`OpenApi.fromApi`, with its examples, src/api/Examples.ts)
 * rendered as a page (pages/ApiDocsPage.ts). The document is the one `/api/openapi.json` serves;
 * each language's page is rendered once, on its first request, and kept.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { apiDocsPage } from "../../pages/ApiDocsPage.ts"
import type { Html } from "../../pages/Html.ts"
import type { Lang } from "../../pages/Text.ts"
import { openApiDocument } from "../OpenApiDocument.ts"
import { API_DOCS_PATH } from "./PagePaths.ts"
import { htmlResponse, requestLang } from "./Respond.ts"

const rendered = new Map<Lang, Html>()

const docsPage = (lang: Lang): Html => {
  const known = rendered.get(lang)
  if (known !== undefined) return known
  const page = apiDocsPage(openApiDocument(), lang)
  rendered.set(lang, page)
  return page
}

export const ApiDocsRoute = HttpApiBuilder.Router.use((router) =>
  router.get(
    API_DOCS_PATH,
    Effect.map(requestLang, (lang) => htmlResponse(docsPage(lang)))
  )
)
