/**
 * Every request as node receives it, before the gatekeeper and the Effect runtime: its request id,
 * its metrics, the count of requests in flight, and the drain on shutdown.
 *
 * - The request id is the client's `X-Request-Id` when safe (observe/RequestId.ts), else a new one;
 *   it replaces the header, so the app logs the same id it answers with (`withRequestId`).
 * - Requests by route template, method and status, and their duration, are recorded when the
 *   response closes, refusals and /health included: what a client saw, not what a handler meant.
 * - `drain` stops the listeners accepting, answers what arrives on an open connection 503 with
 *   `Connection: close`, and waits (at most its grace) until every request in flight is answered.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as M from "../../observe/Metrics.ts"
import { MetricsEndpoint } from "../../observe/Prometheus.ts"
import { isSafeRequestId, requestIdOf } from "../../observe/RequestId.ts"
import { Limits, type Refusals } from "./Limits.ts"
import { routeLabel } from "./RouteLabel.ts"

const METHODS = new Set(["GET", "HEAD", "POST"])

export const makeTraffic = (
  options: {
    readonly metrics?: (req: IncomingMessage, res: ServerResponse) => void
    readonly refusals?: Refusals
  } = {}
) => {
  let inFlight = 0
  let draining = false
  const servers = new Set<Server>()
  let onIdle: (() => void) | undefined

  const finished = (path: string, method: string, res: ServerResponse, began: number) => () => {
    inFlight--
    M.httpInFlight.unsafeUpdate(inFlight, [])
    const route = routeLabel(path)
    const status = res.headersSent ? String(res.statusCode) : "aborted"
    M.httpRequests.unsafeUpdate(1, M.labelsOf(`http ${route} ${method} ${status}`, { route, method, status }))
    M.httpRequestDuration.unsafeUpdate(
      (performance.now() - began) / 1000,
      M.labelsOf(`http ${route}`, { route })
    )
    if (inFlight === 0) onIdle?.()
  }

  /**
   * Take a request as node hands it over. True when answered here (a scrape on the API port with
   * `serveMetrics`, or a refusal while draining); false: pass it on.
   */
  const observe = (req: IncomingMessage, res: ServerResponse, serveMetrics = false): boolean => {
    const id = requestIdOf(req.headers["x-request-id"])
    req.headers["x-request-id"] = id
    res.setHeader("x-request-id", id)
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    const path = q < 0 ? url : url.slice(0, q)
    if (serveMetrics && path === "/metrics" && options.metrics) {
      options.metrics(req, res)
      return true
    }
    const method = METHODS.has(req.method ?? "") ? req.method! : "other"
    inFlight++
    M.httpInFlight.unsafeUpdate(inFlight, [])
    res.once("close", finished(path, method, res, performance.now()))
    if (!draining) return false
    options.refusals?.record(503, "shutting-down", {})
    const body = JSON.stringify({ error: "the service is shutting down; retry in a few seconds" })
    res.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "5",
      connection: "close"
    })
    res.end(body)
    return true
  }

  /**
   * Stop accepting and wait until no request is in flight, at most `graceMs`; then close every
   * connection left. Resolves with the number of requests that were cut off.
   */
  const drain = (graceMs: number) =>
    Effect.async<number>((resume) => {
      draining = true
      // node >= 19: close() also ends the idle keep-alive connections; busy ones finish first.
      for (const server of servers) server.close()
      const done = () => {
        clearTimeout(timer)
        onIdle = undefined
        const cut = inFlight
        for (const server of servers) server.closeAllConnections()
        resume(Effect.succeed(cut))
      }
      const timer = setTimeout(done, Math.max(0, graceMs))
      if (inFlight === 0) return done()
      onIdle = done
    })

  return {
    observe,
    drain,
    attach: (server: Server) => void servers.add(server),
    draining: () => draining,
    inFlight: () => inFlight
  } as const
}

export type TrafficShape = ReturnType<typeof makeTraffic>

/** The process's one Traffic: both listeners and the shutdown share it. */
export class Traffic extends Effect.Service<Traffic>()("Traffic", {
  effect: Effect.gen(function* () {
    const { respond } = yield* MetricsEndpoint
    const { refusals } = yield* Limits
    return makeTraffic({ metrics: respond, refusals })
  }),
  dependencies: [MetricsEndpoint.Default, Limits.Default]
}) {}

/**
 * Inside the app: the request id as a log annotation and a span attribute, and in the answer. The
 * node listener has already put a safe id in the header; any other server (tests) gets one here.
 */
export const withRequestId = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const sent = request.headers["x-request-id"]
    const id = sent !== undefined && isSafeRequestId(sent) ? sent : requestIdOf(undefined)
    return Effect.zipRight(
      Effect.annotateCurrentSpan("request.id", id),
      Effect.map(app, (response) => HttpServerResponse.setHeader(response, "x-request-id", id))
    ).pipe(Effect.annotateLogs("requestId", id))
  })
