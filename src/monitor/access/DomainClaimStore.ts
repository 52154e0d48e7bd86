/**
 * Tenants' claims on domains in the cluster's database beside the keys and monitors (SQLite under
 * DATA_DIR alone, the shared Postgres with several runners), so every runner answers alike whose
 * reports a key may read. One row per (tenant, domain): two tenants may claim, verify and publish
 * the same domain apart. Plain SQL both dialects accept; the table is created at start-up with
 * `IF NOT EXISTS`, under the keys' advisory lock on Postgres.
 */
import { type Domain, domainOfRow } from "../../records/DomainName.ts"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createTables } from "../../store/StartupTables.ts"
import type { ClaimState } from "./DomainClaim.ts"

// node-postgres returns BIGINT as text; SQLite returns numbers.
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

export interface ClaimRow {
  readonly tenant: string
  readonly domain: Domain
  readonly token: string
  readonly state: ClaimState
  readonly createdAt: number
  /** When the token was last found. */
  readonly verifiedAt: number | null
  /** When the challenge was last looked up, whatever the answer. */
  readonly checkedAt: number | null
  /** What the last look-up said, in words (`found`, `not found`, or why it failed). */
  readonly lastCheck: string | null
  /** Whether the last finding was DNSSEC-validated (the AD bit). */
  readonly authenticated: boolean
  /** The owner publishes the domain's received reports in its public pages and reports. */
  readonly publicReports: boolean
}

export const ensureClaimTables = createTables("access", (sql) =>
  Effect.gen(function* () {
    yield* sql`CREATE TABLE IF NOT EXISTS tenant_domains (
        tenant TEXT NOT NULL,
        domain TEXT NOT NULL,
        token TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        verified_at BIGINT,
        checked_at BIGINT,
        last_check TEXT,
        authenticated INTEGER NOT NULL DEFAULT 0,
        public_reports INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant, domain)
      )`
    yield* sql`CREATE INDEX IF NOT EXISTS tenant_domains_domain ON tenant_domains (domain)`
  })
)

const toRow = (r: Record<string, unknown>): ClaimRow => ({
  tenant: String(r.tenant),
  domain: domainOfRow(r.domain),
  token: String(r.token),
  state: String(r.state) as ClaimState,
  createdAt: num(r.created_at)!,
  verifiedAt: num(r.verified_at),
  checkedAt: num(r.checked_at),
  lastCheck: r.last_check === null || r.last_check === undefined ? null : String(r.last_check),
  authenticated: Number(r.authenticated) === 1,
  publicReports: Number(r.public_reports) === 1
})

/** Insert a new pending claim; an existing claim of the tenant on the domain is kept as it is. */
export const insertClaim = (tenant: string, domain: string, token: string, now: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`INSERT INTO tenant_domains (tenant, domain, token, state, created_at)
      VALUES (${tenant}, ${domain}, ${token}, 'pending', ${now})
      ON CONFLICT (tenant, domain) DO NOTHING`
  )

export const findClaim = (tenant: string, domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql`SELECT * FROM tenant_domains WHERE tenant = ${tenant} AND domain = ${domain}`, (rows) =>
      rows.length === 0 ? undefined : toRow(rows[0]!)
    )
  )

export const listClaims = (tenant: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql`SELECT * FROM tenant_domains WHERE tenant = ${tenant} ORDER BY domain`, (rows) =>
      rows.map(toRow)
    )
  )

/** The verified claims not looked at since `before`: the daily re-check's work, at most `limit`. */
export const claimsToRecheck = (before: number, limit: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT * FROM tenant_domains WHERE state = 'verified'
        AND (checked_at IS NULL OR checked_at <= ${before}) ORDER BY checked_at LIMIT ${limit}`,
      (rows) => rows.map(toRow)
    )
  )

/** Record one look-up's outcome. */
export const recordCheck = (
  row: Pick<ClaimRow, "tenant" | "domain" | "state" | "verifiedAt" | "lastCheck" | "authenticated">,
  now: number
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE tenant_domains SET state = ${row.state}, verified_at = ${row.verifiedAt},
      checked_at = ${now}, last_check = ${row.lastCheck}, authenticated = ${row.authenticated ? 1 : 0}
      WHERE tenant = ${row.tenant} AND domain = ${row.domain}`
  )

export const setPublicReports = (tenant: string, domain: string, published: boolean) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE tenant_domains SET public_reports = ${published ? 1 : 0}
      WHERE tenant = ${tenant} AND domain = ${domain}`
  )

/** Delete the claim; false when there was none. */
export const deleteClaim = (tenant: string, domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function* () {
      const found =
        yield* sql`SELECT 1 AS one FROM tenant_domains WHERE tenant = ${tenant} AND domain = ${domain}`
      if (found.length === 0) return false
      yield* sql`DELETE FROM tenant_domains WHERE tenant = ${tenant} AND domain = ${domain}`
      return true
    })
  )

/** Whether `tenant` holds a verified claim on `domain`. */
export const isVerifiedBy = (tenant: string, domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT 1 AS one FROM tenant_domains
        WHERE tenant = ${tenant} AND domain = ${domain} AND state = 'verified'`,
      (rows) => rows.length > 0
    )
  )

/** Whether some tenant holds a verified claim on `domain` (`HISTORY=owned`). */
export const isVerifiedByAnyone = (domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT 1 AS one FROM tenant_domains WHERE domain = ${domain} AND state = 'verified' LIMIT 1`,
      (rows) => rows.length > 0
    )
  )

/** Whether some tenant with a verified claim on `domain` publishes its reports. */
export const reportsPublished = (domain: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT 1 AS one FROM tenant_domains
        WHERE domain = ${domain} AND state = 'verified' AND public_reports = 1 LIMIT 1`,
      (rows) => rows.length > 0
    )
  )
