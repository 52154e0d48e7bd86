/**
 * Monitors, their runs and their alerts, in the cluster's database beside `deep_scans` (SQLite under
 * DATA_DIR alone, the shared Postgres with several runners), so that every runner reads the same
 * monitors and any runner can run any of them. Plain SQL both dialects accept; tables created at
 * start-up with `IF NOT EXISTS`.
 *
 * - `monitors`: the definition (channels with their secrets, needed to sign), the schedule
 *   (`next_due`), and the state the alert rules compare against: the last scan (gzip, base64) and
 *   the early warnings already sent.
 * - `monitor_runs`: one row per (monitor, due time), the dedupe key of a run. A run writes its
 *   outcome and its alerts in one transaction with `finished_at`; a run found finished is not scanned
 *   again, whichever runner the cluster re-delivers it to.
 * - `monitor_alerts`: one row per alert and channel, its delivery state and attempts.
 */
import { type Domain, domainOfRow } from "../records/DomainName.ts"
import { gunzipSync, gzipSync } from "node:zlib"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createTables } from "../store/StartupTables.ts"
import type { AlertLanguage, AlertStatus, Channel } from "./MonitorModel.ts"

// node-postgres returns BIGINT as text; SQLite returns numbers.
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

export interface MonitorRow {
  readonly id: string
  readonly domain: Domain
  readonly everyMs: number
  readonly channels: ReadonlyArray<Channel>
  readonly createdAt: number
  readonly deletedAt: number | null
  readonly nextDue: number
  readonly lastRunAt: number | null
  readonly lastGrade: string | null
  readonly runs: number
  /** The API's base URL (ending in `/api`) as the monitor's creator reached it: the alerts' links. */
  readonly baseUrl: string
  /** The tenant whose API key created it; null: the operator's (the machine, an admin key, MONITORS_TOKEN). */
  readonly tenant: string | null
  /** The language its alerts are written in. */
  readonly lang: AlertLanguage
}

export interface MonitorState {
  /** The last scan's JSON (encoded `ScanResult`), null before the first run. */
  readonly lastScan: string | null
  readonly lastScannedAt: number | null
  /** Keys of the early warnings already sent (`Warnings.ts`). */
  readonly warned: ReadonlyArray<string>
}

export interface AlertRow {
  readonly id: string
  readonly monitorId: string
  readonly domain: Domain
  readonly dueAt: number
  readonly createdAt: number
  readonly channel: number
  readonly channelType: "webhook" | "email"
  readonly target: string
  readonly rules: ReadonlyArray<string>
  readonly summaries: ReadonlyArray<string>
  /** The message: the webhook's JSON body, or the e-mail's `{subject, text}` as JSON. */
  readonly body: string
  readonly status: AlertStatus
  readonly attempts: number
  readonly lastAttemptAt: number | null
  readonly nextAttemptAt: number | null
  readonly deliveredAt: number | null
  readonly lastError: string | null
}

export const toMonitor = (r: Record<string, unknown>): MonitorRow => ({
  id: String(r.id),
  domain: domainOfRow(r.domain),
  everyMs: num(r.every_ms)!,
  channels: JSON.parse(String(r.channels)) as ReadonlyArray<Channel>,
  createdAt: num(r.created_at)!,
  deletedAt: num(r.deleted_at),
  nextDue: num(r.next_due)!,
  lastRunAt: num(r.last_run_at),
  lastGrade: (r.last_grade as string | null) ?? null,
  runs: num(r.runs) ?? 0,
  baseUrl: String(r.base_url),
  tenant: r.tenant === null || r.tenant === undefined ? null : String(r.tenant),
  // A monitor created before alerts had a language (the column null) writes them in English.
  lang: r.lang === "nl" ? "nl" : "en"
})

const toAlert = (r: Record<string, unknown>): AlertRow => ({
  id: String(r.id),
  monitorId: String(r.monitor_id),
  domain: domainOfRow(r.domain),
  dueAt: num(r.due_at)!,
  createdAt: num(r.created_at)!,
  channel: num(r.channel)!,
  channelType: r.channel_type as "webhook" | "email",
  target: String(r.target),
  rules: JSON.parse(String(r.rules)) as ReadonlyArray<string>,
  summaries: JSON.parse(String(r.summaries)) as ReadonlyArray<string>,
  body: String(r.body),
  status: r.status as AlertStatus,
  attempts: num(r.attempts) ?? 0,
  lastAttemptAt: num(r.last_attempt_at),
  nextAttemptAt: num(r.next_attempt_at),
  deliveredAt: num(r.delivered_at),
  lastError: (r.last_error as string | null) ?? null
})

/** Compress the stored scan: a full scan's JSON is tens of kilobytes and compresses about tenfold. */
export const packScan = (json: string) => gzipSync(json).toString("base64")
export const unpackScan = (packed: string) => gunzipSync(Buffer.from(packed, "base64")).toString("utf8")

/** Create the tables if missing, each runner at start-up (store/StartupTables.ts). */
export const ensureMonitorTables = createTables("monitors", () => createMonitorTables)

/** A nullable text column added to `monitors` when a table made before it lacks it. */
const addColumn = (name: "tenant" | "lang") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.onDialectOrElse({
      pg: () => Effect.asVoid(sql`ALTER TABLE monitors ADD COLUMN IF NOT EXISTS ${sql(name)} TEXT`),
      orElse: () =>
        Effect.flatMap(sql`SELECT name FROM pragma_table_info('monitors') WHERE name = ${name}`, (rows) =>
          rows.length > 0
            ? Effect.void
            : Effect.asVoid(sql`ALTER TABLE monitors ADD COLUMN ${sql(name)} TEXT`)
        )
    })
  )

const createMonitorTables = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS monitors (
    id TEXT PRIMARY KEY,
    domain TEXT NOT NULL,
    every_ms BIGINT NOT NULL,
    channels TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT,
    next_due BIGINT NOT NULL,
    last_run_at BIGINT,
    last_grade TEXT,
    runs INTEGER NOT NULL DEFAULT 0,
    last_scan TEXT,
    last_scanned_at BIGINT,
    warned TEXT NOT NULL DEFAULT '[]',
    base_url TEXT NOT NULL,
    tenant TEXT,
    lang TEXT
  )`
  // Tables created before monitors had owners: every monitor in them is the operator's.
  yield* addColumn("tenant")
  // Tables created before alerts had a language: their monitors' alerts stay in English.
  yield* addColumn("lang")
  yield* sql`CREATE INDEX IF NOT EXISTS monitors_by_tenant ON monitors (tenant, created_at, id)`
  yield* sql`CREATE TABLE IF NOT EXISTS monitor_runs (
    monitor_id TEXT NOT NULL,
    due_at BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    attempts INTEGER NOT NULL DEFAULT 1,
    runner TEXT,
    PRIMARY KEY (monitor_id, due_at)
  )`
  yield* sql`CREATE TABLE IF NOT EXISTS monitor_alerts (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    due_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    channel INTEGER NOT NULL,
    channel_type TEXT NOT NULL,
    target TEXT NOT NULL,
    rules TEXT NOT NULL,
    summaries TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_attempt_at BIGINT,
    next_attempt_at BIGINT,
    delivered_at BIGINT,
    last_error TEXT
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS monitor_alerts_by_monitor ON monitor_alerts (monitor_id, created_at)`
})

export const insertMonitor = (m: {
  readonly id: string
  readonly baseUrl: string
  readonly domain: Domain
  readonly everyMs: number
  readonly channels: ReadonlyArray<Channel>
  readonly createdAt: number
  readonly nextDue: number
  readonly tenant: string | null
  readonly lang: AlertLanguage
}) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO monitors (id, domain, every_ms, channels, created_at, next_due, base_url, tenant, lang)
          VALUES (${m.id}, ${m.domain}, ${m.everyMs}, ${JSON.stringify(m.channels)}, ${m.createdAt}, ${m.nextDue},
            ${m.baseUrl}, ${m.tenant}, ${m.lang})`
  )

/** A monitor that has not been deleted. */
export const getMonitor = (id: string) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`SELECT * FROM monitors WHERE id = ${id} AND deleted_at IS NULL`
    ),
    (rows) => (rows[0] ? toMonitor(rows[0]) : undefined)
  )

export const listMonitors = Effect.map(
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`SELECT * FROM monitors WHERE deleted_at IS NULL ORDER BY created_at, id`
  ),
  (rows) => rows.map(toMonitor)
)

/** Deleted monitors stay as rows (their alerts refer to them) and never run again; true if one was deleted. */
export const deleteMonitor = (id: string, nowMs: number) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`UPDATE monitors SET deleted_at = ${nowMs} WHERE id = ${id} AND deleted_at IS NULL RETURNING id`
    ),
    (rows) => rows.length > 0
  )

export const monitorState = (id: string) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`SELECT last_scan, last_scanned_at, warned FROM monitors WHERE id = ${id}`
    ),
    (rows): MonitorState => {
      const r = rows[0]
      return {
        lastScan: r?.last_scan ? unpackScan(String(r.last_scan)) : null,
        lastScannedAt: num(r?.last_scanned_at),
        warned: r ? (JSON.parse(String(r.warned)) as ReadonlyArray<string>) : []
      }
    }
  )

/**
 * Claim the run (monitor, due time): a new row, or one more attempt of a run not yet finished.
 * Returns false when that run already finished (a re-delivered message): it is not run again.
 */
export const claimRun = (monitorId: string, dueAt: number, nowMs: number, runner: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function* () {
      yield* sql`INSERT INTO monitor_runs (monitor_id, due_at, started_at, runner, attempts)
                 VALUES (${monitorId}, ${dueAt}, ${nowMs}, ${runner}, 0)
                 ON CONFLICT (monitor_id, due_at) DO NOTHING`
      const rows = yield* sql`UPDATE monitor_runs SET attempts = attempts + 1, runner = ${runner}
                   WHERE monitor_id = ${monitorId} AND due_at = ${dueAt} AND finished_at IS NULL
                   RETURNING due_at`
      return rows.length > 0
    })
  )

/** The alert ids a finished run created (for a re-delivered run, to hand them on again). */
export const alertIdsOfRun = (monitorId: string, dueAt: number) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`SELECT id FROM monitor_alerts WHERE monitor_id = ${monitorId} AND due_at = ${dueAt} ORDER BY channel`
    ),
    (rows) => rows.map((r) => String(r.id))
  )

/** What a run writes: the new state, and its alerts (to be recorded as pending). */
export interface RunOutcome {
  readonly scannedAt: number
  readonly grade: string | null
  readonly scanJson: string
  readonly warned: ReadonlyArray<string>
  readonly alerts: ReadonlyArray<
    Omit<AlertRow, "status" | "attempts" | "lastAttemptAt" | "deliveredAt" | "lastError">
  >
}

/**
 * Settle a run in one transaction: read the monitor's state (the row locked on Postgres, so two
 * overlapping runs of one monitor, a manual and a scheduled one, take turns), let `decide` judge
 * the new scan against it, write the new state and the alerts, and mark the run finished. `decide`
 * returns null to leave the state as it is (a scan that could not grade the domain says nothing
 * about it). The state moves only to a newer scan. Returns the ids of the alerts written.
 */
export const settleRun = (
  monitorId: string,
  dueAt: number,
  nowMs: number,
  decide: (state: MonitorState) => RunOutcome | null
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.gen(function* () {
        yield* sql.onDialectOrElse({
          pg: () => sql`SELECT id FROM monitors WHERE id = ${monitorId} FOR UPDATE`,
          orElse: () => Effect.void
        })
        const state = yield* monitorState(monitorId)
        const run = decide(state)
        yield* sql`UPDATE monitor_runs SET finished_at = ${nowMs}
                   WHERE monitor_id = ${monitorId} AND due_at = ${dueAt}`
        if (run === null) {
          yield* sql`UPDATE monitors SET runs = runs + 1, last_run_at = ${nowMs} WHERE id = ${monitorId}`
          return []
        }
        if (state.lastScannedAt !== null && state.lastScannedAt >= run.scannedAt) return []
        yield* sql`UPDATE monitors SET runs = runs + 1, last_run_at = ${nowMs}, last_grade = ${run.grade},
                     last_scan = ${packScan(run.scanJson)}, last_scanned_at = ${run.scannedAt},
                     warned = ${JSON.stringify(run.warned)}
                   WHERE id = ${monitorId}`
        for (const a of run.alerts)
          yield* sql`INSERT INTO monitor_alerts (id, monitor_id, domain, due_at, created_at, channel, channel_type,
                       target, rules, summaries, body, status, attempts, next_attempt_at)
                     VALUES (${a.id}, ${a.monitorId}, ${a.domain}, ${a.dueAt}, ${a.createdAt}, ${a.channel},
                       ${a.channelType}, ${a.target}, ${JSON.stringify(a.rules)}, ${JSON.stringify(a.summaries)},
                       ${a.body}, 'pending', 0, ${a.nextAttemptAt})
                     ON CONFLICT (id) DO NOTHING`
        return run.alerts.map((a) => a.id)
      })
    )
  )

/** Move the schedule on: only forward, so a late or repeated run never moves it back. */
export const setNextDue = (monitorId: string, nextDue: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE monitors SET next_due = ${nextDue} WHERE id = ${monitorId} AND next_due < ${nextDue}`
  )

export const getAlert = (id: string) =>
  Effect.map(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT * FROM monitor_alerts WHERE id = ${id}`),
    (rows) => (rows[0] ? toAlert(rows[0]) : undefined)
  )

export const listAlerts = (monitorId: string, limit = 200) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`SELECT * FROM monitor_alerts WHERE monitor_id = ${monitorId} ORDER BY created_at DESC, channel LIMIT ${limit}`
    ),
    (rows) => rows.map(toAlert)
  )

/** One delivery attempt's outcome; only a pending alert changes (a repeated attempt step is harmless). */
export const recordAttempt = (
  id: string,
  outcome: {
    readonly nowMs: number
    readonly status: AlertStatus
    readonly error: string | null
    readonly nextAttemptAt: number | null
  }
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`UPDATE monitor_alerts SET attempts = attempts + 1, last_attempt_at = ${outcome.nowMs},
            status = ${outcome.status}, last_error = ${outcome.error}, next_attempt_at = ${outcome.nextAttemptAt},
            delivered_at = ${outcome.status === "delivered" ? outcome.nowMs : null}
          WHERE id = ${id} AND status = 'pending'`
  )

/** Whether `domain` has a monitor (for the history's `HISTORY=monitored`). */
export const isMonitored = (domain: string) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`SELECT 1 AS one FROM monitors WHERE domain = ${domain} AND deleted_at IS NULL LIMIT 1`
    ),
    (rows) => rows.length > 0
  )
