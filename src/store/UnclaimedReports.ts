/**
 * Reports kept apart (docs/access.md "Unclaimed reports"): a report mailed to a tenant's address for
 * a domain that tenant has not verified is no one's yet. It is kept here whole, as the message that
 * carried it, with the verdict on who sent it (DNS may say otherwise later), never in the tables
 * the summaries, pages and scans read; it moves there when the tenant verifies the domain, and is
 * deleted after `REPORTS_UNCLAIMED_RETENTION` otherwise. One row per (tenant, message).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Migrations appended to `store/Sql.ts`'s list. */
export const unclaimedReportMigrations = {
  "0015_unclaimed_reports": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE unclaimed_report (
      id INTEGER PRIMARY KEY,
      tenant TEXT NOT NULL,
      domain TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('aggregate', 'failure')),
      received_at INTEGER NOT NULL,
      message BLOB NOT NULL,
      content_hash TEXT NOT NULL,
      authenticated INTEGER NOT NULL CHECK (authenticated IN (0, 1)),
      authenticated_for TEXT,
      authentication TEXT NOT NULL,
      UNIQUE (tenant, content_hash)
    )`
    yield* sql`CREATE INDEX unclaimed_report_owner ON unclaimed_report (tenant, domain)`
    yield* sql`CREATE INDEX unclaimed_report_received ON unclaimed_report (received_at)`
  })
}

/** Aggregate (DMARC or TLS, read by ReportsIn) or failure (FailureReportsIn): which reader adopts it. */
export type UnclaimedKind = "aggregate" | "failure"

export interface UnclaimedInsert {
  readonly tenant: string
  readonly domain: string
  readonly kind: UnclaimedKind
  readonly received_at: number
  readonly message: Uint8Array
  readonly content_hash: string
  readonly authenticated: 0 | 1
  readonly authenticated_for: string | null
  readonly authentication: string
}

export interface UnclaimedRow extends UnclaimedInsert {
  readonly id: number
}

/** Keep a message for `tenant`; the same message for the same tenant is kept once. */
export const keepUnclaimed = (row: UnclaimedInsert) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{
        id: number
      }>`INSERT INTO unclaimed_report ${sql.insert({ ...row, message: Buffer.from(row.message) })}
        ON CONFLICT (tenant, content_hash) DO NOTHING RETURNING id`,
      (inserted) => ({ fresh: inserted.length > 0 })
    )
  )

/** The (tenant, domain) pairs that hold unclaimed reports: what the adoption pass asks about. */
export const unclaimedOwners = (limit: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ tenant: string; domain: string }>`SELECT DISTINCT tenant, domain FROM unclaimed_report
      ORDER BY tenant, domain LIMIT ${limit}`
  )

/** The tenant's unclaimed reports for `domain`, oldest first. */
export const unclaimedFor = (tenant: string, domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<UnclaimedRow>`SELECT * FROM unclaimed_report WHERE tenant = ${tenant} AND domain = ${domain}
        ORDER BY received_at, id`,
      (rows) => rows.map((r) => ({ ...r, message: new Uint8Array(r.message) }))
    )
  )

/** Forget one unclaimed report (adopted, or unreadable now). */
export const dropUnclaimed = (id: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM unclaimed_report WHERE id = ${id}`)

/** Remove every unclaimed report received before `before` (epoch seconds); returns how many went. */
export const pruneUnclaimed = (before: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ id: number }>`DELETE FROM unclaimed_report WHERE received_at < ${before} RETURNING id`,
      (gone) => gone.length
    )
  )

/** How many unclaimed reports are held for `domain`, whoever's address took them (tests). */
export const unclaimedCount = (domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ n: number }>`SELECT COUNT(*) AS n FROM unclaimed_report WHERE domain = ${domain}`,
      (rows) => rows[0]?.n ?? 0
    )
  )
