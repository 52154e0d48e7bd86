/**
 * `HEALTH_PORT`: a second listener that answers only `GET /health` (and `/api/health`), from the
 * same background-refreshed state as the API's (Health.ts), and `GET /metrics` (the Prometheus
 * text, observe/Prometheus.ts): the management port, private to probes and the scraper.
 *
 * Why a listener of its own: node accepts one new connection per event-loop iteration (libuv 1.45+,
 * libuv/libuv#3696), each listener in turn. When a crowd opens hundreds of connections at once, a
 * load balancer's probe on a new connection to the API port waits in the kernel's accept queue
 * behind all of them, seconds under load (docs/bench.md), however cheaply /health is answered once
 * read. On its own port it is accepted in the next iteration. Nothing else is served there, so the
 * port can stay private to the load balancer or the orchestrator's probes; it listens on loopback
 * unless HEALTH_HOST names another address.
 */
import { createServer, type ServerResponse } from "node:http"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../Config.ts"
import { MetricsEndpoint } from "../../observe/Prometheus.ts"
import { Health, writeHealth } from "./Health.ts"
import { Traffic } from "./Traffic.ts"

/** A JSON `{ error }` answer (the contract's error shape, on this port too). */
const refuse = (
  res: ServerResponse,
  status: 404 | 405,
  error: string,
  extra: Record<string, string> = {}
) => {
  const body = JSON.stringify({ error })
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...extra
  })
  res.end(body)
}

/**
 * The health and metrics listener on HEALTH_HOST:HEALTH_PORT while the layer lives; nothing when
 * HEALTH_PORT is 0. HEALTH_HOST is loopback unless set: the metrics tell how the service is used,
 * which is the operator's to know, and an orchestrator that probes from outside says so.
 */
export const HealthPortLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const { healthHost: host, healthPort } = yield* AppConfig
    if (healthPort === 0) return
    const health = yield* Health
    const { respond: metrics } = yield* MetricsEndpoint
    const traffic = yield* Traffic
    const server = createServer({ maxHeaderSize: 8_192, headersTimeout: 10_000 }, (req, res) => {
      const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "")
      if (path === "/metrics") metrics(req, res)
      else if (path !== "/health" && path !== "/api/health")
        refuse(res, 404, "this port answers GET /health and GET /metrics only")
      else if (req.method !== "GET" && req.method !== "HEAD")
        refuse(res, 405, "use GET", { allow: "GET, HEAD" })
      // Draining: the load balancer should stop sending now, before the listener goes away.
      else if (traffic.draining()) writeHealth(req, res, { status: 503, body: { error: "shutting down" } })
      else writeHealth(req, res, health.answer())
    })
    // A probe sends one short line: anything malformed or slow is closed, not answered.
    server.on("clientError", (_error, socket) => socket.destroy())
    yield* Effect.acquireRelease(
      Effect.async<void, Error>((resume) => {
        server.once("error", (e) => resume(Effect.fail(e)))
        server.listen(healthPort, host, () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.close(() => resume(Effect.void))
          server.closeAllConnections() // probes' keep-alive connections would hold close() open
        })
    )
    yield* Effect.logInfo(`health and metrics on http://${host}:${healthPort}/health and /metrics`)
  })
).pipe(Layer.provide([Traffic.Default, MetricsEndpoint.Default]))
