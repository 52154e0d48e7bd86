/**
 * Who really sent each aggregate and TLS report (docs/reports-in.md "Authenticity"): the verdict
 * stored beside the report, and what the DMARC summary reads of it. Reports stored before this
 * was recorded are unauthenticated, saying so.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { moveToAuthenticated, rolledUpGroups } from "./DmarcRollup.ts"
import { periodReports } from "./ReportPeriod.ts"

/** Migrations appended to `store/Sql.ts`'s list. */
export const reportAuthenticityMigrations = {
  "0014_inbound_report_authenticity": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE inbound_report ADD COLUMN authenticated INTEGER NOT NULL DEFAULT 0`
    yield* sql`ALTER TABLE inbound_report ADD COLUMN authenticated_for TEXT`
    yield* sql`ALTER TABLE inbound_report ADD COLUMN authentication TEXT NOT NULL
      DEFAULT 'stored before reports were authenticated'`
  })
}

/** The verdict as stored. */
export interface AuthenticityColumns {
  readonly authenticated: 0 | 1
  readonly authenticated_for: string | null
  readonly authentication: string
}

/**
 * Record the verdict on the report just stored (kind, reporter, report id, domain, content). A
 * duplicate proved genuine (the same content again, now authenticated) is marked authenticated;
 * one already authenticated is never marked down by an unauthenticated copy.
 */
export const recordAuthenticity = (
  head: {
    readonly kind: string
    readonly reporter: string
    readonly reportId: string
    readonly domain: string
    readonly contentHash: string
  },
  verdict: AuthenticityColumns
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const where = sql`kind = ${head.kind} AND reporter = ${head.reporter} AND report_id = ${head.reportId}
        AND domain = ${head.domain} AND content_hash = ${head.contentHash}`
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const [before] = yield* sql<{ id: number; authenticated: number }>`SELECT id, authenticated
          FROM inbound_report WHERE ${where}`
        yield* sql`UPDATE inbound_report SET authenticated = ${verdict.authenticated},
            authenticated_for = ${verdict.authenticated_for}, authentication = ${verdict.authentication}
          WHERE ${where} AND (authenticated = 0 OR ${verdict.authenticated} = 1)`
        // the summary's rollup counts a DMARC report's rows under its verdict
        if (head.kind === "dmarc" && before?.authenticated === 0 && verdict.authenticated === 1)
          yield* moveToAuthenticated(before.id)
      })
    )
  })

export interface AuthenticityCount {
  readonly authenticated: number
  readonly reporter: string
  readonly reports: number
}

/** A domain's `kind` reports in [from, to) by reporter and verdict. */
export const authenticityCounts = (kind: "dmarc" | "tls", domain: string, from: number, to: number) =>
  periodReports<AuthenticityCount>(
    kind,
    domain,
    from,
    to,
    "authenticated, reporter, COUNT(*) AS reports",
    "GROUP BY authenticated, reporter ORDER BY reporter"
  )

/** A domain's DMARC records in [from, to) from authenticated reports only, grouped as `dmarcGroups`. */
export const authenticatedDmarcGroups = (domain: string, from: number, to: number) =>
  rolledUpGroups(domain, from, to, true)
