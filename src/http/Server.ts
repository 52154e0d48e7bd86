/**
 * The HTTP server: every group's handlers, the generated OpenAPI document at /api/openapi.json,
 * interactive docs at /api/docs, all behind the edge rules of Edge.ts.
 */
import { createServer } from "node:http"
import { HttpApiBuilder, HttpApiScalar, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { Api } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { CspScanner } from "../scan/CspScanner.ts"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"
import { SqlLive } from "../store/Sql.ts"
import { AiHandlers } from "./AiHandlers.ts"
import { DnsHandlers } from "./DnsHandlers.ts"
import { edge } from "./Edge.ts"
import { EmailHandlers } from "./EmailHandlers.ts"
import { MiscHandlers } from "./MiscHandlers.ts"
import { ReportHandlers } from "./ReportHandlers.ts"
import { ScanHandlers } from "./ScanHandlers.ts"
import { WebHandlers } from "./WebHandlers.ts"

/** The outside world as services (DESIGN.md "one door to the network"), built once for all groups. */
export const NetLive = CspScanner.Default.pipe(
  Layer.provideMerge(Layer.merge(Web.Default, Smtp.Default)),
  Layer.provideMerge(Resolver.Default)
)

/** The implemented API: the contract plus every group's handlers and what they need. */
export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([
    DnsHandlers,
    EmailHandlers,
    ScanHandlers,
    ReportHandlers,
    WebHandlers,
    AiHandlers,
    MiscHandlers
  ]),
  Layer.provide([NetLive, SqlLive])
)

/**
 * The routes, waiting for an HttpServer (a real port, or a test server). The edge wraps the app
 * itself, not the server: server middleware runs after the response is written.
 */
export const AppLive = Effect.gen(function* () {
  const { maxBodyBytes } = yield* AppConfig
  const app = yield* HttpApiBuilder.httpApp
  return HttpServer.serve(edge(maxBodyBytes)(app))
}).pipe(
  Layer.unwrapEffect,
  Layer.provide(HttpApiScalar.layer({ path: "/api/docs" })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" })),
  Layer.provide(ApiLive),
  Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer])
)

/** Serve on AppConfig's HOST:PORT. */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, ({ host, port }) =>
    AppLive.pipe(Layer.provide(NodeHttpServer.layer(createServer, { host, port })))
  )
)
