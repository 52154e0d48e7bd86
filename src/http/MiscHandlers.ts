/** Handlers of the misc group: badge, PDF and hall of fame come with their issues; health is real. */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented, Unavailable } from "../api/Errors.ts"

const startedAt = Date.now()

/** The database is healthy when it answers a query and runs in WAL mode. */
const databaseHealth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const start = yield* Clock.currentTimeMillis
  const rows = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
  const latencyMs = (yield* Clock.currentTimeMillis) - start
  const journalMode = rows[0]?.journal_mode ?? "unknown"
  return {
    status: journalMode === "wal" ? ("healthy" as const) : ("degraded" as const),
    journalMode,
    latencyMs
  }
})

export const MiscHandlers = HttpApiBuilder.group(Api, "misc", (handlers) =>
  handlers
    .handle("badge", () => Effect.fail(notImplemented))
    .handle("pdf", () => Effect.fail(notImplemented))
    .handle("hallOfFame", () => Effect.fail(notImplemented))
    .handle("health", () =>
      Effect.gen(function* () {
        const database = yield* databaseHealth.pipe(
          Effect.catchAll((error) =>
            Effect.fail(new Unavailable({ error: `database unusable: ${error.message}` }))
          )
        )
        const now = yield* Clock.currentTimeMillis
        const services = { database }
        return {
          status: Object.values(services).every((s) => s.status === "healthy") ? "healthy" : "degraded",
          timestamp: new Date(now).toISOString(),
          uptime: Math.floor((now - startedAt) / 1000),
          services
        } as const
      })
    )
)
