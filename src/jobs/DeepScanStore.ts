/**
 * The index of deep scans, beside the cluster's own tables in the cluster's database (SQLite under
 * DATA_DIR by default, Postgres with CLUSTER_DATABASE_URL), so that every runner reads the same
 * jobs. The durable execution itself (messages, activity results) is the cluster's
 * (`SqlMessageStorage`); this table holds what the API reads back without asking the workflow
 * engine: domain, type, times, status, the result, and the durations behind `estimated_time`.
 *
 * It lives in the cluster's database rather than in `store/Sql.ts`'s migrations because in
 * multi-runner mode that database is the shared one; the statements are plain SQL that SQLite and
 * Postgres both accept, and `CREATE ... IF NOT EXISTS` makes start-up on either idempotent.
 */
import { type Domain, domainOfRow } from "../records/DomainName.ts"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as M from "../observe/Metrics.ts"

/** What a scan job is: the two deep scans of the API, and the full scan of `scanOnCluster`. */
export type ScanKind = "web" | "mail" | "full"
export type JobStatus = "running" | "completed" | "failed"

export interface JobRow {
  readonly scanId: string
  readonly domain: Domain
  readonly kind: ScanKind
  readonly requestedAt: number
  readonly startedAt: number | null
  readonly finishedAt: number | null
  readonly status: JobStatus
  readonly error: string | null
  /** The encoded result (JSON text) once completed. */
  readonly result: string | null
  /** How many times a runner began executing the workflow (more than 1: it was resumed). */
  readonly runs: number
  /** How many times the final state was written: 1 for a finished job, whatever happened. */
  readonly recorded: number
  /**
   * How many times the step writing it ran. Activities run at least once: a runner killed between
   * the write and the journal entry of its reply runs it again elsewhere; the write is conditional,
   * so that second run changes nothing, and this count shows it happened.
   */
  readonly recordAttempts: number
  /** The runner that last began executing it (`host:port`, or `single`). */
  readonly lastRunner: string | null
}

// node-postgres returns BIGINT as text; SQLite returns numbers.
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

const toRow = (r: Record<string, unknown>): JobRow => ({
  scanId: String(r.scan_id),
  domain: domainOfRow(r.domain),
  kind: r.kind as ScanKind,
  requestedAt: num(r.requested_at)!,
  startedAt: num(r.started_at),
  finishedAt: num(r.finished_at),
  status: r.status as JobStatus,
  error: (r.error as string | null) ?? null,
  result: (r.result as string | null) ?? null,
  runs: num(r.runs) ?? 0,
  recorded: num(r.recorded) ?? 0,
  recordAttempts: num(r.record_attempts) ?? 0,
  lastRunner: (r.last_runner as string | null) ?? null
})

/** Create the table if missing (each runner does at start-up). */
export const ensureTable = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS deep_scans (
    scan_id TEXT PRIMARY KEY,
    domain TEXT NOT NULL,
    kind TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    started_at BIGINT,
    finished_at BIGINT,
    status TEXT NOT NULL,
    error TEXT,
    result TEXT,
    runs INTEGER NOT NULL DEFAULT 0,
    recorded INTEGER NOT NULL DEFAULT 0,
    record_attempts INTEGER NOT NULL DEFAULT 0,
    last_runner TEXT
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS deep_scans_by_domain ON deep_scans (domain, kind, requested_at)`
  yield* sql`CREATE INDEX IF NOT EXISTS deep_scans_by_finish ON deep_scans (kind, status, finished_at)`
})

/** Record a new job as running; a second insert of the same id changes nothing. */
export const insertJob = (job: {
  readonly scanId: string
  readonly domain: Domain
  readonly kind: ScanKind
  readonly requestedAt: number
}) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO deep_scans (scan_id, domain, kind, requested_at, status)
          VALUES (${job.scanId}, ${job.domain}, ${job.kind}, ${job.requestedAt}, 'running')
          ON CONFLICT (scan_id) DO NOTHING`
  ).pipe(Effect.tap(() => M.deepScans.unsafeUpdate(1, ACCEPTED)))

export const getJob = (scanId: string) =>
  Effect.map(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT * FROM deep_scans WHERE scan_id = ${scanId}`),
    (rows) => (rows[0] ? toRow(rows[0]) : undefined)
  )

/** The newest job for (domain, kind) requested since `sinceMs` that has not failed. */
export const findReusable = (domain: string, kind: ScanKind, sinceMs: number) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`SELECT * FROM deep_scans
            WHERE domain = ${domain} AND kind = ${kind} AND requested_at >= ${sinceMs} AND status <> 'failed'
            ORDER BY requested_at DESC LIMIT 1`
    ),
    (rows) => (rows[0] ? toRow(rows[0]) : undefined)
  )

/** A runner began (or resumed) the job: count it, and keep the first start time. */
export const markStarted = (scanId: string, nowMs: number, runner: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`UPDATE deep_scans SET runs = runs + 1, started_at = COALESCE(started_at, ${nowMs}), last_runner = ${runner}
          WHERE scan_id = ${scanId}`
  ).pipe(Effect.tap(() => M.deepScans.unsafeUpdate(1, STARTED)))

/**
 * The final state, written once: only a job still `running` changes (a repeated run of the step
 * counts in `record_attempts` and changes nothing else).
 */
export const finishJob = (
  scanId: string,
  outcome: {
    readonly status: "completed" | "failed"
    readonly result: string | null
    readonly error: string | null
  },
  nowMs: number
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.zipRight(
        sql`UPDATE deep_scans SET record_attempts = record_attempts + 1 WHERE scan_id = ${scanId}`,
        sql`UPDATE deep_scans SET status = ${outcome.status}, result = ${outcome.result}, error = ${outcome.error},
              finished_at = ${nowMs}, recorded = recorded + 1
            WHERE scan_id = ${scanId} AND status = 'running'`
      )
    )
  ).pipe(Effect.tap(() => M.deepScans.unsafeUpdate(1, outcome.status === "completed" ? COMPLETED : FAILED)))

// The states a job reaches, counted by the runner that wrote them: `started` again on a resumed run.
const ACCEPTED = M.labels({ state: "accepted" })
const STARTED = M.labels({ state: "started" })
const COMPLETED = M.labels({ state: "completed" })
const FAILED = M.labels({ state: "failed" })

/** Work durations (ms) of the most recent completed jobs of `kind`, newest first. */
export const recentDurations = (kind: ScanKind, limit = 20) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`SELECT started_at, finished_at FROM deep_scans
            WHERE kind = ${kind} AND status = 'completed' AND started_at IS NOT NULL
            ORDER BY finished_at DESC LIMIT ${limit}`
    ),
    (rows) => rows.map((r) => num(r.finished_at)! - num(r.started_at)!)
  )
