/**
 * `domain-audit serve`: settings -> layers -> HTTP server, until SIGINT/SIGTERM.
 *
 * A stop is graceful (docs/operations.md, "Restarting without losing work"): the listeners stop
 * accepting and requests in flight are answered, for at most `SHUTDOWN_GRACE_MS`; then the layers
 * close in order: the servers, the cluster (a deep scan still running is interrupted, and its
 * workflow, a durable message in the cluster's database, resumes when a runner starts again), the
 * database, and last the tracer, which sends the spans it still holds. The process then exits 0; a
 * second signal quits at once (cli/Run.ts).
 */
import { Context, Effect, Layer, Logger } from "effect"
import { AppConfig } from "../Config.ts"
import { ServerLive, Traffic } from "../Layers.ts"
import { logFormatLayer } from "../observe/LogFormat.ts"

/** No tracer layer at all without an endpoint; the OpenTelemetry SDK is loaded only with one. */
const tracing = (endpoint: string) =>
  endpoint === ""
    ? Effect.succeed(Layer.empty)
    : Effect.map(
        Effect.promise(() => import("../observe/Tracing.ts")),
        (m) => m.tracingLayer(endpoint)
      )

export const serve = Effect.gen(function* () {
  const { host, port, logLevel, logFormat, otlpEndpoint, shutdownGraceMs } = yield* AppConfig
  const running = Effect.gen(function* () {
    const context = yield* Layer.build(ServerLive)
    yield* Effect.logInfo(`domain-audit listening on http://${host}:${port}/api (docs at /api/docs)`)
    const traffic = Context.get(context, Traffic)
    return yield* Effect.never.pipe(
      Effect.onInterrupt(() =>
        Effect.gen(function* () {
          yield* Effect.logInfo(
            `stopping: ${traffic.inFlight()} requests in flight get up to ${shutdownGraceMs} ms`
          )
          const cut = yield* traffic.drain(shutdownGraceMs)
          yield* Effect.logInfo(
            cut === 0 ? "every request answered; closing" : `${cut} requests cut off at the grace's end`
          )
        })
      )
    )
  }).pipe(Effect.scoped)
  return yield* running.pipe(
    Effect.provide(yield* tracing(otlpEndpoint)),
    Logger.withMinimumLogLevel(logLevel),
    Effect.provide(logFormatLayer(logFormat))
  )
})
