/** Handlers of the misc group: badge, PDF, hall of fame (docs/presentation.md) and health. */
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { Api } from "../Api.ts"
import { Unavailable } from "../api/Errors.ts"
import { HallOfFameStore } from "../store/HallOfFame.ts"
import { badgeResponse, pdfResponse } from "./Presentation.ts"

const startedAt = Date.now()

/**
 * The database is usable when a write can be read back (snapshots need both), and healthy when it
 * also runs in WAL mode (crash-safe concurrent reads).
 */
const databaseHealth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const start = yield* Clock.currentTimeMillis
  const stamp = new Date(start).toISOString()
  yield* sql`INSERT INTO app_meta (key, value) VALUES ('health_checked_at', ${stamp})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`
  const [read] = yield* sql<{ value: string }>`SELECT value FROM app_meta WHERE key = 'health_checked_at'`
  if (read?.value !== stamp) return yield* Effect.fail(new Error("a write could not be read back"))
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
    .handle("badge", ({ path }) => badgeResponse(path.domain))
    .handle("pdf", ({ path }) => pdfResponse(path.domain))
    .handle("hallOfFame", () => Effect.flatMap(HallOfFameStore, (store) => Effect.orDie(store.list)))
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
