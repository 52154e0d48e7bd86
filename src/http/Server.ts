/**
 * The HTTP server: every group's handlers, the generated OpenAPI document at /api/openapi.json,
 * the docs page at /api/docs (pages/ApiDocsRoute.ts), an index at /api (handlers/ApiIndex.ts) and the pages for people outside /api (pages/PageRoutes.ts), all
 * behind the edge rules of Edge.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { HttpApiBuilder, HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { Api } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { AiHandlers } from "./handlers/AiHandlers.ts"
import { ApiIndexRoute } from "./handlers/ApiIndex.ts"
import { DnsHandlers } from "./handlers/DnsHandlers.ts"
import { DomainHandlers } from "./handlers/DomainHandlers.ts"
import { AdmissionGate, type Gate } from "./edge/Admission.ts"
import { type GatekeeperSettings, makeGatekeeper } from "./edge/Gatekeeper.ts"
import { trustedCidrs } from "./edge/ClientAddress.ts"
import { makeAuthFirst } from "./edge/AuthFirst.ts"
import { edge } from "./edge/Edge.ts"
import { withCompression } from "./edge/Compression.ts"
import { withPageHeaders } from "./edge/PageHeaders.ts"
import { PageRoutes } from "./pages/PageRoutes.ts"
import { ApiDocsRoute } from "./pages/ApiDocsRoute.ts"
import { Health, type HealthAnswer } from "./edge/Health.ts"
import { KeyClients } from "./edge/KeyClients.ts"
import { Limits } from "./edge/Limits.ts"
import { EmailHandlers } from "./handlers/EmailHandlers.ts"
import { HistoryHandlers } from "./handlers/HistoryHandlers.ts"
import { MiscHandlers } from "./handlers/MiscHandlers.ts"
import { MonitorHandlers } from "./handlers/MonitorHandlers.ts"
import { ReportHandlers } from "./handlers/ReportHandlers.ts"
import { ReportsInHandlers } from "./handlers/ReportsInHandlers.ts"
import { ScanHandlers } from "./handlers/ScanHandlers.ts"
import { SigningKeyHandlers } from "./handlers/SigningKeyHandlers.ts"
import { WebHandlers } from "./handlers/WebHandlers.ts"
import { quote } from "./edge/RequestTarget.ts"
import { Traffic, type TrafficShape, withRequestId } from "./edge/Traffic.ts"
import { ApiKeysLive } from "../monitor/access/ApiKeys.ts"

/**
 * The implemented API: the contract plus every group's handlers. The services they call (scans,
 * stores, jobs, health) are wired once, in Layers.ts.
 */
export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([
    DnsHandlers,
    EmailHandlers,
    ScanHandlers,
    ReportHandlers,
    WebHandlers,
    AiHandlers,
    MiscHandlers,
    HistoryHandlers,
    ReportsInHandlers,
    MonitorHandlers,
    DomainHandlers,
    SigningKeyHandlers
  ])
)

/**
 * The routes, waiting for an HttpServer (a real port, or a test server). The edge wraps the app
 * itself, not the server: server middleware runs after the response is written.
 */
export const AppLive = Effect.gen(function* () {
  const config = yield* AppConfig
  // find-my-way refuses path parameters over 100 characters by default, which surfaced as a 405;
  // the URL is already bounded by MAX_HEADER_BYTES, so let the endpoint's schema judge the value.
  const app = yield* HttpApiBuilder.httpApp.pipe(
    HttpRouter.withRouterConfig({
      maxParamLength: 65_536,
      // The edge redirects every other spelling to the canonical one (RequestTarget.ts); a router as
      // strict as that serves nothing the edge did not classify.
      caseSensitive: true,
      ignoreDuplicateSlashes: false
    })
  )
  const health = yield* Health
  // Pages get their security headers, and pages and docs their compression, outside the edge, so
  // that the edge's own answers to page requests carry them too; every answer carries its request id.
  // /health says `starting` until the routes are attached (Health.ts).
  return HttpServer.serve(
    withRequestId(
      withCompression()(
        withPageHeaders(config)(edge(config, yield* AdmissionGate, yield* makeAuthFirst)(app))
      )
    )
  ).pipe(Layer.tap(() => health.served))
}).pipe(
  Layer.unwrapEffect,
  Layer.provide([AdmissionGate.Default, Limits.Default, ApiKeysLive]),
  Layer.provide(ApiDocsRoute),
  Layer.provide(PageRoutes),
  Layer.provide(ApiIndexRoute),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/api/openapi.json" })),
  Layer.provide(ApiLive),
  Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer])
)

const PARSER_ERRORS: Record<string, readonly [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "request line and headers too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "the request took too long to arrive"],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "the request headers took too long to arrive"]
}

/** A JSON answer written straight onto the socket, then the connection closed. */
const writeAndClose = (socket: Duplex, status: number, reason: string, body: string, extra = "") =>
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`
  )

/**
 * CONNECT asks for a tunnel (RFC 9110 §9.3.6), which an origin server does not offer; node hands it
 * to a `connect` listener, and without one closes the connection unanswered.
 */
export const onConnect = (_req: IncomingMessage, socket: Duplex) => {
  if (!socket.writable) return void socket.destroy()
  writeAndClose(
    socket,
    405,
    "Method Not Allowed",
    JSON.stringify({ error: "CONNECT is not allowed: this is an API, not a proxy; use GET, HEAD or POST" }),
    "Allow: GET, HEAD, POST\r\n"
  )
}

/**
 * An `Expect` other than 100-continue (RFC 9110 §10.1.1): 417 with the same JSON as every other
 * refusal (node's own 417 has an empty body).
 */
export const onExpectation = (req: IncomingMessage, res: ServerResponse) => {
  const body = JSON.stringify({
    error: `Expect: '${quote(String(req.headers.expect ?? ""), 40)}' is not supported; only 100-continue is`
  })
  res.writeHead(417, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    connection: "close"
  })
  res.end(body)
}

/**
 * Answer what node's HTTP parser refuses before the app sees a request (oversized headers, bad
 * syntax, slow clients) with the same `{ error }` JSON as everything else, then close.
 */
export const onClientError = (error: NodeJS.ErrnoException, socket: Duplex) => {
  // A response already under way on this socket (the parser failed on what followed it) cannot be
  // followed by another: close, as node's default handler does.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (!socket.writable || error.code === "ECONNRESET" || inFlight?.headersSent) return void socket.destroy()
  const [status, message] = PARSER_ERRORS[error.code ?? ""] ?? [400, "malformed HTTP request"]
  const reason = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }[
    status
  ]
  writeAndClose(socket, status, reason ?? "Bad Request", JSON.stringify({ error: message }))
}

/**
 * node's server with the edge's limits: the header cap; a request's line, headers and body must
 * all arrive within `REQUEST_TIMEOUT_MS` of its first byte (408 beyond, checked every second or
 * so); keep-alive between requests longer than the usual client and proxy idle timeouts (so a
 * reused connection is not closed under a request); JSON answers to parser errors, CONNECT and
 * unknown expectations.
 */
export const makeNodeServer = (
  config: GatekeeperSettings & { readonly maxHeaderBytes: number; readonly requestTimeoutMs: number },
  health?: () => HealthAnswer,
  gate?: Pick<Gate, "full" | "retryAfterS" | "permits" | "queue" | "stats">,
  limits?: Parameters<typeof makeGatekeeper>[4],
  traffic?: { readonly shape: TrafficShape; readonly serveMetrics: boolean }
): Server => {
  const server = createServer({
    maxHeaderSize: config.maxHeaderBytes,
    keepAliveTimeout: 65_000,
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.requestTimeoutMs,
    // node's default looks for overdue requests every 30 s, which let one run to twice its limit.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(config.requestTimeoutMs / 4)))
  })
  server.on("clientError", onClientError)
  server.on("connect", onConnect)
  server.on("checkExpectation", onExpectation)
  // The gatekeeper answers refusals before the platform's request listener sees them, and hands on
  // later what it held.
  const emit = server.emit.bind(server) as (event: string, ...args: Array<unknown>) => boolean
  const gatekeeper = makeGatekeeper(config, health, gate, (req, res) => emit("request", req, res), limits)
  // Traffic (request id, metrics, drain) sees every request first, refusals included.
  server.emit = ((event: string, ...args: Array<unknown>) =>
    event === "request" &&
    (traffic?.shape.observe(args[0] as IncomingMessage, args[1] as ServerResponse, traffic.serveMetrics) ||
      gatekeeper.handle(args[0] as IncomingMessage, args[1] as ServerResponse))
      ? true
      : emit(event, ...args)) as Server["emit"]
  server.on("close", gatekeeper.stop)
  traffic?.shape.attach(server)
  return server
}

/** The node server on `listen` (port 0: a free one), with AppConfig's limits. */
export const nodeServerLayer = (listen: { readonly host?: string; readonly port: number }) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const health = yield* Health
      // The edge's gate (the same layer value AppLive provides, so one instance): when it is full,
      // the gatekeeper refuses at once, before the router.
      const gate = yield* AdmissionGate
      // The per-client buckets, shared with the handlers that advertise them beside their own.
      const limits = yield* Limits
      const traffic = { shape: yield* Traffic, serveMetrics: config.metricsOnApi }
      // a request with a usable API key is charged to the key's bucket (KeyClients.ts)
      const keyClients = yield* KeyClients
      return NodeHttpServer.layer(
        () =>
          makeNodeServer(
            { ...config, trustedProxies: trustedCidrs(config.trustedProxies) },
            health.answer,
            gate,
            { ...limits, keyClientOf: keyClients.clientOf },
            traffic
          ),
        listen
      )
    })
  ).pipe(Layer.provide([AdmissionGate.Default, Limits.Default, Traffic.Default]))
