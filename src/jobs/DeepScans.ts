/**
 * Deep scans as the API offers them (POST /scan/deep, GET /scan/deep/{scan_id}) over the durable
 * `ScanJob` workflow, and `scanOnCluster`, one full scan as a durable job on the cluster.
 *
 * - Submitting reuses the newest job of the same domain and type requested within
 *   `DEEP_SCAN_REUSE_MS` that has not failed (running or completed); else it starts a new one.
 *   Only a new job costs the caller a token of the deep-scan rate limit (the `admit` callback).
 * - `estimated_time` is the median work time of the last 20 completed jobs of that type (less the
 *   time already spent, for a running job); with none yet, the type's budget (see `fallbackMs`).
 * - A job still `running` past `DEEP_SCAN_MAX_AGE_MS` plus the deep deadline is reported `failed`
 *   with the reason: its runner went away and no runner resumed it, so it never stays `running`.
 */
import { type Domain, NormalDomain } from "../records/DomainName.ts"
import { WorkflowEngine } from "@effect/workflow"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { AppConfig, type Settings } from "../Config.ts"
import { DateTime } from "../records/Schemas.ts"
import type { DeepScanType } from "../kernel/Declaration.ts"
import { ClusterLive } from "./Cluster.ts"
import { DeepScanResult, readStoredResult, ScanJob, ScanJobLive } from "./DeepScan.ts"
import {
  finishJob,
  findReusable,
  getJob,
  insertJob,
  type JobRow,
  recentDurations,
  type ScanKind
} from "./DeepScanStore.ts"

export type { DeepScanType } from "../kernel/Declaration.ts"

export const DeepScanStatus = Schema.Literal("running", "completed", "failed")

/** POST /scan/deep: the job started (or reused) for the request. */
export const DeepScanAccepted = Schema.Struct({
  success: Schema.Boolean,
  scan_id: Schema.String,
  status: DeepScanStatus,
  estimated_time: Schema.Int
})
export type DeepScanAccepted = typeof DeepScanAccepted.Type

/** GET /scan/deep/{scan_id}: our definition of how a started deep scan is read back. */
export const DeepScanState = Schema.Struct({
  success: Schema.Boolean,
  scan_id: Schema.String,
  domain: NormalDomain,
  /** `full`: a full scan run as a job by `scanOnCluster` (docs/cluster.md). */
  type: Schema.Literal("web", "mail", "full"),
  status: DeepScanStatus,
  /** Seconds still expected while running (0 once finished). */
  estimated_time: Schema.Int,
  startedAt: DateTime,
  completedAt: Schema.NullOr(DateTime),
  /** The deep scan's result once completed (its parts that could not finish are `unknown` inside). */
  result: Schema.NullOr(DeepScanResult),
  /** Why the job failed, else null. */
  error: Schema.NullOr(Schema.String)
})
export type DeepScanState = typeof DeepScanState.Type

/** The caller is over its deep-scan limit: retry after `retryAfter` seconds. */
export class DeepScanRefused extends Schema.TaggedError<DeepScanRefused>()("DeepScanRefused", {
  retryAfter: Schema.Int
}) {}

/** With no completed job of the type yet: what its budget allows. */
export const fallbackMs = (config: Settings, kind: ScanKind): number =>
  kind === "web"
    ? config.httpTimeoutMs + config.cspBudgetMs
    : kind === "mail"
      ? config.deepScanDeadlineMs
      : config.scanDeadlineMs

export const median = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * The first key of the two-key advisory locks that order job claims per (domain, type): the two-key
 * form is a key space apart from the cluster's one-key shard locks, and this class apart from the
 * runner start lock (Cluster.ts).
 */
const CLAIM_LOCK_CLASS = 0x646f6d62

export class DeepScans extends Effect.Service<DeepScans>()("DeepScans", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const context = yield* Effect.context<SqlClient.SqlClient | WorkflowEngine.WorkflowEngine>()
    // Look-up and creation in one step per process, so concurrent identical requests share a job.
    const lock = yield* Effect.makeSemaphore(1)

    const estimateMs = (kind: ScanKind) =>
      Effect.map(recentDurations(kind), (durations) => median(durations) ?? fallbackMs(config, kind))

    const stateOf = (row: JobRow, nowMs: number) =>
      Effect.gen(function* () {
        let { status, error, finishedAt } = row
        const stale = config.deepScanMaxAgeMs + config.deepScanDeadlineMs
        if (status === "running" && nowMs - row.requestedAt > stale) {
          error = `the job stopped (its runner went away) and was not resumed within ${Math.round(stale / 1000)} s`
          yield* finishJob(row.scanId, { status: "failed", result: null, error }, nowMs)
          status = "failed"
          finishedAt = nowMs
        }
        const total = yield* estimateMs(row.kind)
        const elapsed = nowMs - (row.startedAt ?? nowMs)
        // A check added or removed since is read as not checked / left out (readStoredResult); a
        // result that still does not decode (a check's result changed shape): say so, rather than
        // fail the read or serve a shape the contract does not promise.
        const decoded =
          status === "completed" && row.result !== null
            ? yield* Effect.option(readStoredResult(row.result))
            : null
        const result = decoded === null ? null : Option.getOrNull(decoded)
        if (decoded !== null && Option.isNone(decoded))
          error =
            "this result was stored by an earlier version of the service and no longer matches the current format; submit the scan again"
        return {
          success: status !== "failed",
          scan_id: row.scanId,
          domain: row.domain,
          type: row.kind,
          status,
          estimated_time: status === "running" ? Math.max(1, Math.ceil((total - elapsed) / 1000)) : 0,
          startedAt: new Date(row.startedAt ?? row.requestedAt).toISOString(),
          completedAt: finishedAt === null ? null : new Date(finishedAt).toISOString(),
          result,
          error
        } satisfies DeepScanState
      })

    /** Record a new job for (domain, kind) with the given key; its workflow is started by `run`. */
    const claim = (domain: Domain, kind: ScanKind, key: string, nowMs: number) =>
      Effect.gen(function* () {
        const payload = { domain, kind, key, requestedAt: nowMs }
        const scanId = yield* ScanJob.executionId(payload)
        yield* insertJob({ scanId, domain, kind, requestedAt: nowMs })
        return { scanId, payload }
      })

    const run = (payload: typeof ScanJob.payloadSchema.Type) => ScanJob.execute(payload, { discard: true })

    /** Start a job for (domain, kind) with the given key, recorded before the workflow begins. */
    const start = (domain: Domain, kind: ScanKind, key: string, nowMs: number) =>
      Effect.flatMap(claim(domain, kind, key, nowMs), ({ scanId, payload }) =>
        Effect.as(run(payload), scanId)
      )

    /**
     * Find-or-claim as one step for every runner: in one process the semaphore orders it; across
     * runners sharing Postgres, a transaction-scoped advisory lock on (domain, type) does, so two
     * runners given the same request at the same instant return one job, not two. The workflow is
     * started after the commit: its own writes are not part of this transaction.
     */
    const findOrClaim = (domain: Domain, type: DeepScanType, admit: () => number) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql.onDialectOrElse({
              pg: () =>
                sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}, hashtext(${`${domain}|${type}`}))`,
              orElse: () => Effect.void
            })
            const now = yield* Clock.currentTimeMillis
            const existing = yield* findReusable(domain, type, now - config.deepScanReuseMs)
            if (existing) return { scanId: existing.scanId, payload: undefined }
            const wait = admit()
            if (wait > 0) return yield* new DeepScanRefused({ retryAfter: wait })
            return yield* claim(domain, type, String(now), now)
          })
        )
      })

    /** POST /scan/deep: the existing job within the reuse window, or a new one (`admit` > 0 refuses). */
    const submit = (domain: Domain, type: DeepScanType, admit: () => number) =>
      lock
        .withPermits(1)(
          Effect.gen(function* () {
            const { scanId, payload } = yield* findOrClaim(domain, type, admit)
            if (payload !== undefined) yield* run(payload)
            return scanId
          })
        )
        .pipe(
          Effect.flatMap((scanId) => get(scanId)),
          Effect.map((state) => state!)
        )

    /** GET /scan/deep/{scan_id}: undefined when no such job. */
    const get = (scanId: string) =>
      Effect.gen(function* () {
        const row = yield* getJob(scanId)
        if (row === undefined) return undefined
        return yield* stateOf(row, yield* Clock.currentTimeMillis)
      })

    const provide = <A, E>(
      effect: Effect.Effect<A, E, SqlClient.SqlClient | WorkflowEngine.WorkflowEngine>
    ) => Effect.provide(effect, context)
    return {
      submit: (domain: Domain, type: DeepScanType, admit: () => number) =>
        provide(submit(domain, type, admit)).pipe(Effect.catchTags({ SqlError: Effect.die })),
      get: (scanId: string) => provide(get(scanId)).pipe(Effect.catchTags({ SqlError: Effect.die })),
      start: (domain: Domain, kind: ScanKind, key: string) =>
        provide(Effect.flatMap(Clock.currentTimeMillis, (now) => start(domain, kind, key, now))).pipe(
          Effect.catchTags({ SqlError: Effect.die })
        ),
      await: (scanId: string) => provide(awaitJob(scanId))
    } as const
  })
}) {}

/** Poll the jobs table until `scanId` has finished (the workflow writes it last). */
const awaitJob = (scanId: string) =>
  Effect.gen(function* () {
    for (;;) {
      const row = yield* getJob(scanId).pipe(Effect.orDie)
      if (row && row.status !== "running")
        return row.status === "completed" && row.result !== null
          ? yield* Effect.orDie(readStoredResult(row.result))
          : yield* Effect.fail(row.error ?? "the scan failed")
      yield* Effect.sleep("250 millis")
    }
  })

/**
 * One full scan on the cluster: `domain` as a durable `full` job on whichever
 * runner owns it, and await its result (`{ type: "full", scan }`; score it with `score/Score.ts`).
 * `batchId` groups a run: the same (domain, batchId) is one job however often it is submitted, so
 * a caller that re-runs with the same id picks up the jobs it had already started. Fails with the job's
 * reason when the job failed. Needs `DeepScans` (from `JobsLive`, in a runner or a client process).
 */
export const scanOnCluster = (domain: Domain, batchId: string) =>
  Effect.gen(function* () {
    const jobs = yield* DeepScans
    const scanId = yield* jobs.start(domain, "full", `batch:${batchId}`)
    return yield* jobs.await(scanId)
  })

/** Deep scans over this process's cluster: the workflow registered, its engine and storage inside. */
export const JobsLive = DeepScans.Default.pipe(Layer.provideMerge(ScanJobLive), Layer.provide(ClusterLive))
