/**
 * `GET /api`, the address the README and the start-up line give: an index of the service rather
 * than a 404. It links the docs, the OpenAPI document, health and the pages, and lists every
 * endpoint of the contract with its summary, read from the same OpenAPI document as /api/docs, so
 * the list cannot drift from what is served.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { AppConfig } from "../../Config.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"
import { openApiDocument } from "../OpenApiDocument.ts"

const METHODS = ["get", "post", "put", "patch", "delete"] as const

export interface IndexedEndpoint {
  readonly method: string
  readonly path: string
  readonly summary: string
}

/** Every endpoint of the contract, in the OpenAPI document's order. Pure. */
export const contractEndpoints = (): ReadonlyArray<IndexedEndpoint> =>
  Object.entries(openApiDocument().paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method]
      return operation === undefined
        ? []
        : [{ method: method.toUpperCase(), path, summary: operation.summary ?? "" }]
    })
  )

let endpoints: ReadonlyArray<IndexedEndpoint> | undefined

/** The index for an API served at `base` (ending in `/api`, or `/api` itself when relative). */
export const apiIndex = (base: string) => {
  const site = base.slice(0, -"/api".length)
  return {
    name: "domain-audit",
    description:
      "How well is this domain protected? DNS and DNSSEC, e-mail authentication, mail servers, web security and dependencies, graded.",
    links: {
      docs: `${base}/docs`,
      openapi: `${base}/openapi.json`,
      health: `${base}/health`,
      pages: `${site}/`,
      report: `${site}/report/{domain}`,
      quickScan: `${base}/scan/quick?domain={domain}`
    },
    endpoints: (endpoints ??= contractEndpoints())
  }
}

export const ApiIndexRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    yield* router.get(
      "/api",
      publicBaseUrl.pipe(
        Effect.flatMap((base) => HttpServerResponse.json(apiIndex(base))),
        Effect.provideService(AppConfig, config),
        Effect.orDie
      )
    )
  })
)
