/**
 * What `/api/docs` and `/api/openapi.json` say about an operation: a summary (one line, shown in
 * the operation list) and a description (what it does, what it answers, when it fails). Every
 * endpoint of api/ carries both; test/api/OpenApiDocs.test.ts fails on one without.
 */
import { OpenApi } from "@effect/platform"

export const documented = (summary: string, description: string) =>
  OpenApi.annotations({ summary, description })
