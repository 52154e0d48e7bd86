/**
 * The storage of DMARC failure reports (docs/reports-in.md "Failure reports"): one row per report,
 * holding only what the failure summary and an analyst read (inbound/FailureReport.ts says what is
 * reduced and why). The same message received twice (the same bytes) is stored once.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Migrations appended to `store/Sql.ts`'s list. */
export const failureReportMigrations = {
  "0013_failure_reports": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE failure_report (
      id INTEGER PRIMARY KEY,
      domain TEXT NOT NULL,
      reporter TEXT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('arf', 'plain-text')),
      received_at INTEGER NOT NULL,
      arrival_at INTEGER NOT NULL,
      source_ip TEXT,
      failures TEXT NOT NULL,
      identity_alignment TEXT,
      delivery_result TEXT,
      authentication_results TEXT NOT NULL,
      dkim_domain TEXT,
      dkim_selector TEXT,
      spf_dns TEXT,
      from_domain TEXT,
      mail_from_domain TEXT,
      user_agent TEXT,
      routing TEXT NOT NULL,
      auth_headers TEXT NOT NULL,
      subject TEXT,
      original TEXT,
      content_hash TEXT NOT NULL UNIQUE,
      authenticated INTEGER NOT NULL CHECK (authenticated IN (0, 1)),
      authenticated_for TEXT,
      authentication TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX failure_report_period ON failure_report (domain, arrival_at)`
    yield* sql`CREATE INDEX failure_report_arrival ON failure_report (arrival_at)`
  })
}

export interface FailureReportInsert {
  readonly domain: string
  readonly reporter: string
  readonly format: "arf" | "plain-text"
  readonly received_at: number
  readonly arrival_at: number
  readonly source_ip: string | null
  readonly failures: string
  readonly identity_alignment: string | null
  readonly delivery_result: string | null
  readonly authentication_results: string
  readonly dkim_domain: string | null
  readonly dkim_selector: string | null
  readonly spf_dns: string | null
  readonly from_domain: string | null
  readonly mail_from_domain: string | null
  readonly user_agent: string | null
  readonly routing: string
  readonly auth_headers: string
  readonly subject: string | null
  readonly original: string | null
  readonly content_hash: string
  readonly authenticated: 0 | 1
  readonly authenticated_for: string | null
  readonly authentication: string
}

/** Store a failure report; `fresh: false` when the same bytes were stored before. */
export const storeFailureReport = (row: FailureReportInsert) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ id: number }>`INSERT INTO failure_report ${sql.insert({ ...row })}
        ON CONFLICT (content_hash) DO NOTHING RETURNING id`,
      (inserted) => ({ fresh: inserted.length > 0 })
    )
  )

/** Remove every failure report that arrived before `before` (epoch seconds); returns how many went. */
export const pruneFailureReports = (before: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ id: number }>`DELETE FROM failure_report WHERE arrival_at < ${before} RETURNING id`,
      (gone) => gone.length
    )
  )

/** What the failure summary reads of one report. */
export interface FailureRow {
  readonly reporter: string
  readonly arrival_at: number
  readonly source_ip: string | null
  readonly failures: string
  readonly dkim_domain: string | null
  readonly dkim_selector: string | null
  readonly mail_from_domain: string | null
  readonly authenticated: number
}

/** A domain's failure reports that arrived in [from, to). */
export const failureRows = (domain: string, from: number, to: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<FailureRow>`SELECT reporter, arrival_at, source_ip, failures, dkim_domain, dkim_selector,
        mail_from_domain, authenticated
      FROM failure_report WHERE domain = ${domain} AND arrival_at >= ${from} AND arrival_at < ${to}`
  )

/** How many failure reports arrived for `domain` in [from, to): the count the report shows. */
export const failureCount = (domain: string, from: number, to: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ n: number }>`SELECT COUNT(*) AS n FROM failure_report
        WHERE domain = ${domain} AND arrival_at >= ${from} AND arrival_at < ${to}`,
      (rows) => rows[0]?.n ?? 0
    )
  )
