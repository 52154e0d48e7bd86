/**
 * What `/api/docs` and `/api/openapi.json` say about an operation: a summary (one line, shown in
 * the operation list) and a description (what it does, what it answers, when it fails). Every
 * endpoint of api/ carries both; test/api/OpenApiDocs.test.ts fails on one without.
 */
import { type HttpMethod, HttpApiEndpoint, OpenApi } from "@effect/platform"

/** What the docs say about an operation; `deprecated` marks one kept only for old clients. */
export interface About {
  readonly summary: string
  readonly description: string
  readonly deprecated?: boolean
}

const documented = ({ deprecated, description, summary }: About) =>
  OpenApi.annotations({ summary, description, deprecated })

/**
 * An endpoint declared with what the docs say about it, in one call, so that none is declared
 * without: `Endpoint.get("lookup", "/dns/lookup", { summary, description })`. The name stays a
 * literal in the endpoint's type, as `HttpApiEndpoint.get` keeps it, for the handlers and clients
 * HttpApi derives.
 */
const declare =
  <Method extends HttpMethod.HttpMethod>(method: Method) =>
  <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment, about: About) =>
    HttpApiEndpoint.make(method)(name, path).annotateContext(documented(about))

export const Endpoint = {
  get: declare("GET"),
  post: declare("POST"),
  put: declare("PUT"),
  del: declare("DELETE")
}
