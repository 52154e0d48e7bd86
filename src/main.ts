/** Process entry: settings -> layers -> HTTP server, until SIGINT/SIGTERM. */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { AppConfig } from "./Config.ts"
import { ServerLive } from "./Layers.ts"

const main = Effect.gen(function* () {
  const { host, port, logLevel } = yield* AppConfig
  yield* Effect.logInfo(`domain-audit listening on http://${host}:${port}/api (docs at /api/docs)`)
  return yield* Layer.launch(ServerLive).pipe(Logger.withMinimumLogLevel(logLevel))
})

main.pipe(Effect.provide(AppConfig.Default), NodeRuntime.runMain)
