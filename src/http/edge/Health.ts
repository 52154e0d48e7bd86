/**
 * What `GET /health` answers, kept current in the background (/health stays fast under
 * any load). The database check (a write read back, WAL mode) runs every `HEALTH_REFRESH_MS` on its
 * own fiber; a request only reads the last outcome, so /health touches neither the database nor
 * the Effect runtime: the gatekeeper answers it in node's request event (`Gatekeeper.ts`), before
 * any queued scan work, and the API handler reads the same state.
 *
 * A check that has not completed for `STALE_AFTER` refresh periods (the database hangs, or the
 * process is too busy to run it) turns the service `degraded`, with the age in the answer: a probe
 * never reads an old "healthy" as current.
 *
 * Until the service can serve a scan, /health answers 503 with `status: "starting"`: the database
 * check has passed, the resolver has been asked one question (the root's NS set) and that
 * question has ended, answered or not, so the DNS sockets and the query path are up, and the routes
 * are attached to the listener (`served`). The listener opens before the services behind the routes
 * are built (a cluster runner's take minutes on a loaded machine), and a request that arrives in
 * between waits unanswered: a probe must not send traffic there. The answer
 * says whether the resolver answered (`services.resolver`), and what admission control has refused
 * since start (`services.admission`: each 503 and 429 by reason, and the gate's meters).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schedule } from "effect"
import { AppConfig } from "../../Config.ts"
import { Health as HealthSchema } from "../../api/Misc.ts"
import { type ResolverHealth, resolverWarmUp } from "../../composite/ResolverWarmUp.ts"
import { AdmissionGate } from "./Admission.ts"
import { Limits } from "./Limits.ts"

const STALE_AFTER = 5

/** How old a health reading may be before it no longer counts as current: STALE_AFTER refresh periods. */
export const staleAfterMs = (healthRefreshMs: number): number =>
  STALE_AFTER * Math.max(healthRefreshMs, 1_000)

interface DatabaseHealth {
  readonly status: "healthy" | "degraded"
  readonly journalMode: string
  readonly latencyMs: number
  readonly checkedAt: string
}

/** What a /health request answers: 200 with the body, or 503 with `{error}` (and `status` while starting). */
export type HealthAnswer =
  | { readonly status: 200; readonly body: HealthBody }
  | { readonly status: 503; readonly body: { readonly error: string; readonly status?: "starting" } }

/** How long start-up waits for the warm-up before the server listens anyway (answering `starting`). */
const WARM_UP_WAIT_MS = 1_000

/** The contract's shape (`api/Misc.ts`): every service's status, with its details. */
export type HealthBody = typeof HealthSchema.Type

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
    latencyMs,
    checkedAt: stamp
  } satisfies DatabaseHealth
})

export class Health extends Effect.Service<Health>()("Health", {
  scoped: Effect.gen(function* () {
    const { healthRefreshMs } = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const gate = yield* AdmissionGate
    const { refusals } = yield* Limits
    const startedAt = Date.now()
    // The warm-up (composite/ResolverWarmUp.ts): /health says `starting` until it has ended.
    let resolverHealth: ResolverHealth | undefined
    const warmUp = Effect.map(resolverWarmUp, (health) => {
      resolverHealth = health
    })
    const warmed = yield* Effect.forkScoped(warmUp)
    let serving = false
    type Last = { readonly atMs: number; readonly outcome: DatabaseHealth | { readonly error: string } }
    const check = databaseHealth.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.catchAll((e) => Effect.succeed({ error: `database unusable: ${e.message}` })),
      Effect.map((outcome): Last => ({ atMs: Date.now(), outcome }))
    )
    // The first check before the server answers anything; then one per period, in the background.
    let last: Last = yield* check
    // A warm-up that ends quickly (the usual case) ends before the server listens.
    yield* Effect.timeout(warmed.await, WARM_UP_WAIT_MS).pipe(Effect.ignore)
    yield* check.pipe(
      Effect.tap((l) => Effect.sync(() => (last = l))),
      Effect.repeat(Schedule.spaced(healthRefreshMs)),
      Effect.delay(healthRefreshMs),
      Effect.forkScoped
    )
    /** The answer now, from the last check (synchronous: no I/O, no fiber). */
    const answer = (): HealthAnswer => {
      const now = Date.now()
      if ("error" in last.outcome) return { status: 503, body: { error: last.outcome.error } }
      if (resolverHealth === undefined || !serving)
        return {
          status: 503,
          body: { error: "the service is starting; retry in a few seconds", status: "starting" }
        }
      const ageMs = now - last.atMs
      const stale = ageMs > staleAfterMs(healthRefreshMs)
      const database = {
        ...last.outcome,
        status: stale ? ("degraded" as const) : last.outcome.status,
        ageMs
      }
      return {
        status: 200,
        body: {
          status: database.status,
          timestamp: new Date(now).toISOString(),
          uptime: Math.floor((now - startedAt) / 1000),
          services: {
            database,
            resolver: { ...resolverHealth },
            admission: {
              status: "healthy" as const,
              ...gate.stats(),
              permits: gate.permits,
              refused: refusals.counts()
            }
          }
        }
      }
    }
    /** The routes are attached: from now on a request is served, not left waiting. */
    const served = Effect.sync(() => {
      serving = true
    })
    return { answer, served } as const
  })
}) {}

/** Write `answer` to a node response (HEAD: the headers only): the gatekeeper's and the health port's one way to answer. */
export const writeHealth = (req: IncomingMessage, res: ServerResponse, answer: HealthAnswer) => {
  const text = JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    // a starting service is ready within seconds: a probe or a client may come back soon
    ...(answer.status === 503 && answer.body.status === "starting" ? { "retry-after": "1" } : {})
  })
  res.end(req.method === "HEAD" ? undefined : text)
}
