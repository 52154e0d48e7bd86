/** `domain-audit serve`: settings -> layers -> HTTP server, until SIGINT/SIGTERM. */
import { Effect, Layer, Logger } from "effect"
import { AppConfig } from "../Config.ts"
import { ServerLive } from "../Layers.ts"

export const serve = Effect.gen(function* () {
  const { host, port, logLevel } = yield* AppConfig
  yield* Effect.logInfo(`domain-audit listening on http://${host}:${port}/api (docs at /api/docs)`)
  return yield* Layer.launch(ServerLive).pipe(Logger.withMinimumLogLevel(logLevel))
})
