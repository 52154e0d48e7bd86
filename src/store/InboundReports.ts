/**
 * The storage of reports received (docs/reports-in.md): one row per report, deduplicated on
 * (kind, reporter, report id); a DMARC report's records and a TLS report's policies beside it; the
 * DKIM selectors reports name, per domain, which DKIM discovery asks first. A report is written in
 * one transaction, whole or not at all. What is kept is only what the summaries read (no recipient
 * domains, no `human_result` texts, reason comments cut short): see "Privacy" in docs/reports-in.md.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { GROUP_COLUMNS, markPending, rolledUpGroups, unrollExpired, yieldToEventLoop } from "./DmarcRollup.ts"
import { type DmarcRowInsert, dmarcRowInsert, dmarcRowValues } from "./DmarcRows.ts"
import {
  chunks,
  CHUNK,
  FLAG_CONFLICTS,
  REPORT_INSERT,
  type ReportHead,
  reportValues,
  selectorInsert,
  type Stored,
  writeDmarc
} from "./ReportWrite.ts"
import { SqliteDirect } from "./SqliteConnection.ts"
import { periodReports } from "./ReportPeriod.ts"
import { type AuthenticityColumns, recordAuthenticity } from "./ReportAuthenticity.ts"

export { GROUP_COLUMNS }
export type { DmarcRowInsert } from "./DmarcRows.ts"
export type { ReportHead, Stored } from "./ReportWrite.ts"
export type { SourceGroup } from "./GroupMerge.ts"

/**
 * The columns `inbound_report` was created with (0010), which 0011 rebuilds it with, before the
 * columns and identity each adds: the text of both migrations as it was, written once.
 */
const REPORT_COLUMNS = `id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('dmarc', 'tls')),
      domain TEXT NOT NULL,
      reporter TEXT NOT NULL,
      report_id TEXT NOT NULL,
      begin_at INTEGER NOT NULL,
      end_at INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      records INTEGER NOT NULL,
      messages INTEGER NOT NULL,
      contact TEXT,
      policy TEXT NOT NULL`

/** The indexes on `inbound_report` by period and by end, made by 0010 and again on 0011's rebuilt table. */
const reportIndexes = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX inbound_report_period ON inbound_report (kind, domain, begin_at)`
  yield* sql`CREATE INDEX inbound_report_end ON inbound_report (end_at)`
})

/**
 * A table of a report's rows as 0010 made them (`dmarc_row`, `tls_policy`): the report, its domain
 * and begin, then `columns` ("name TYPE", every one NOT NULL), indexed by period and by report.
 */
const rowTable = (name: string, columns: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = ["report INTEGER", "domain TEXT", "begin_at INTEGER", ...columns]
    yield* sql`CREATE TABLE ${sql.unsafe(name)} (${sql.unsafe(all.map((c) => `${c} NOT NULL`).join(", "))})`
    yield* sql`CREATE INDEX ${sql.unsafe(`${name}_period`)} ON ${sql.unsafe(name)} (domain, begin_at)`
    yield* sql`CREATE INDEX ${sql.unsafe(`${name}_report`)} ON ${sql.unsafe(name)} (report)`
  })

/** Migrations appended to `store/Sql.ts`'s list. */
export const inboundReportMigrations = {
  "0010_inbound_reports": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE inbound_report (${sql.unsafe(REPORT_COLUMNS)},
      UNIQUE (kind, reporter, report_id)
    )`
    yield* reportIndexes
    yield* rowTable("dmarc_row", [
      "source_ip TEXT",
      "count INTEGER",
      "disposition TEXT",
      "dkim TEXT",
      "spf TEXT",
      "overrides TEXT",
      "arc INTEGER",
      "header_from TEXT",
      "dkim_auth TEXT",
      "spf_auth TEXT"
    ])
    yield* rowTable("tls_policy", [
      "policy_type TEXT",
      "policy_domain TEXT",
      "mx_hosts TEXT",
      "successful INTEGER",
      "failed INTEGER",
      "failures TEXT"
    ])
    yield* sql`CREATE TABLE dmarc_selector (
      domain TEXT NOT NULL,
      selector TEXT NOT NULL,
      last_seen INTEGER NOT NULL,
      PRIMARY KEY (domain, selector)
    ) WITHOUT ROWID`
  }),
  // A report's identity is (kind, reporter, report id, domain) plus a hash of its content: the same
  // identity with other content (a forgery, or a receiver's corrected re-send) is kept and flagged
  // as a conflict, never dropped as "already stored". SQLite cannot drop a UNIQUE constraint, so
  // the table is rebuilt, keeping every id (the rows point at them).
  "0011_inbound_report_identity": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE inbound_report_next (${sql.unsafe(REPORT_COLUMNS)},
      content_hash TEXT NOT NULL,
      conflict INTEGER NOT NULL DEFAULT 0,
      UNIQUE (kind, reporter, report_id, domain, content_hash)
    )`
    yield* sql`INSERT INTO inbound_report_next
      (id, kind, domain, reporter, report_id, begin_at, end_at, received_at, records, messages, contact, policy, content_hash)
      SELECT id, kind, domain, reporter, report_id, begin_at, end_at, received_at, records, messages, contact, policy,
        'unknown:' || id FROM inbound_report`
    yield* sql`DROP TABLE inbound_report`
    yield* sql`ALTER TABLE inbound_report_next RENAME TO inbound_report`
    yield* reportIndexes
    yield* sql`CREATE INDEX inbound_report_identity ON inbound_report (kind, reporter, report_id, domain)`
  }),
  // What an analyst reads beyond the verdicts, kept from now on (older rows are not re-read: their
  // envelope_from and reason comments stay empty, their repairs unknown): a record's MAIL FROM
  // domain and its override reasons with the receiver's comment; a report's repairs and its
  // passing messages (back-filled from its rows: the daily series needs them per report). The
  // index held every column the summary groups by, in the order it groups, so the summary walked
  // it instead of sorting a million rows (replaced by the rollup, DmarcRollup.ts).
  "0012_dmarc_analyst": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE dmarc_row ADD COLUMN envelope_from TEXT NOT NULL DEFAULT ''`
    yield* sql`ALTER TABLE dmarc_row ADD COLUMN reasons TEXT NOT NULL DEFAULT ''`
    yield* sql`ALTER TABLE inbound_report ADD COLUMN warnings TEXT`
    yield* sql`ALTER TABLE inbound_report ADD COLUMN dmarc_pass INTEGER`
    yield* sql`UPDATE inbound_report SET dmarc_pass = (SELECT COALESCE(SUM(count), 0) FROM dmarc_row
      WHERE dmarc_row.report = inbound_report.id AND (dkim = 'pass' OR spf = 'pass')) WHERE kind = 'dmarc'`
    yield* sql`CREATE INDEX dmarc_row_group ON dmarc_row (domain, ${sql.unsafe(GROUP_COLUMNS)}, begin_at, count)`
  })
}

export interface TlsPolicyInsert {
  /** The policy's own domain: a TLS report may cover several (RFC 8460 4.4 policy-domain). */
  readonly domain: string
  readonly policy_type: string
  readonly policy_domain: string
  readonly mx_hosts: string
  readonly successful: number
  readonly failed: number
  readonly failures: string
}

/**
 * Store a report with its rows in one transaction. The same identity (kind, reporter, report id,
 * domain) and content is a duplicate: nothing is written. The same identity with other content is
 * written and flagged, and so is the one stored before. With `verdict`, who sent it is recorded in
 * the same transaction (`recordAuthenticity`: a fresh report is written with it, a duplicate proved
 * genuine is marked so): each statement of a report costs about as much in the SQL client as in
 * SQLite, so a fresh report is written with as few as it takes.
 */
export const storeReport = (
  head: ReportHead,
  receivedAt: number,
  rows:
    | {
        readonly kind: "dmarc"
        readonly rows: ReadonlyArray<DmarcRowInsert>
        readonly selectors: ReadonlyArray<string>
      }
    | { readonly kind: "tls"; readonly rows: ReadonlyArray<TlsPolicyInsert> },
  verdict?: AuthenticityColumns
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A report of a few hundred records is written on the connection itself, in one synchronous
    // go: each statement through the SQL client costs ~45 µs before SQLite starts (SqliteConnection.ts).
    // A larger one, one inside a transaction already (which holds the connection), or where no
    // direct connection is provided, goes through the client in chunks.
    const direct = yield* Effect.serviceOption(SqliteDirect)
    const within = yield* Effect.serviceOption(SqlClient.TransactionConnection)
    if (
      Option.isSome(direct) &&
      Option.isNone(within) &&
      rows.kind === "dmarc" &&
      rows.rows.length <= CHUNK
    ) {
      const written = yield* direct.value.run((db) => writeDmarc(db, head, receivedAt, rows, verdict))
      if (written !== undefined) return written
      // a duplicate: nothing was written; its verdict and answer as below
    }
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const inserted = yield* sql.unsafe<{ id: number; conflict: number }>(
          REPORT_INSERT,
          reportValues(head, receivedAt, verdict)
        )
        const id = inserted[0]?.id
        if (id === undefined) {
          if (verdict !== undefined) yield* recordAuthenticity(head, verdict)
          const [known] = yield* sql<{ conflict: number }>`SELECT conflict FROM inbound_report
            WHERE kind = ${head.kind} AND reporter = ${head.reporter} AND report_id = ${head.reportId}
              AND domain = ${head.domain} AND content_hash = ${head.contentHash}`
          return { fresh: false, conflict: known?.conflict === 1 } satisfies Stored
        }
        const conflict = inserted[0]!.conflict === 1
        if (conflict)
          yield* sql.unsafe(FLAG_CONFLICTS, [
            head.kind,
            head.reporter,
            head.reportId,
            head.domain,
            head.contentHash
          ])
        if (rows.kind === "dmarc") {
          yield* markPending(id)
          const parts = chunks(rows.rows)
          for (const [i, chunk] of parts.entries()) {
            // between the INSERTs of a large report, not after the last (a small report has one)
            if (i > 0) yield* yieldToEventLoop
            yield* sql.unsafe(
              dmarcRowInsert(chunk.length),
              dmarcRowValues(id, head.domain, head.begin, chunk)
            )
          }
          for (const selectors of chunks(rows.selectors))
            yield* sql.unsafe(
              selectorInsert(selectors.length),
              selectors.flatMap((selector) => [head.domain, selector, head.end])
            )
        } else
          for (const chunk of chunks(rows.rows))
            yield* sql`INSERT INTO tls_policy ${sql.insert(chunk.map((r) => ({ report: id, begin_at: head.begin, ...r })))}`
        return { fresh: true, conflict } satisfies Stored
      })
    )
  })

/** Remove every report whose period ended before `before` (epoch seconds), and selectors last seen then. */
export const pruneReports = (before: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* unrollExpired(before)
        yield* sql`DELETE FROM dmarc_row WHERE report IN (SELECT id FROM inbound_report WHERE end_at < ${before})`
        yield* sql`DELETE FROM tls_policy WHERE report IN (SELECT id FROM inbound_report WHERE end_at < ${before})`
        const gone = yield* sql<{
          id: number
        }>`DELETE FROM inbound_report WHERE end_at < ${before} RETURNING id`
        yield* sql`DELETE FROM dmarc_selector WHERE last_seen < ${before}`
        return gone.length
      })
    )
  })

/** The selectors reports named for `domain` (signatures with d= the domain), most recently seen first. */
export const selectorsSeen = (domain: string, limit: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ selector: string }>`SELECT selector FROM dmarc_selector WHERE domain = ${domain}
        ORDER BY last_seen DESC, selector LIMIT ${limit}`,
      (rows) => rows.map((r) => r.selector)
    )
  )

/** A domain's DMARC records in [from, to) (by their report's begin), grouped as the summary reads them. */
export const dmarcGroups = (domain: string, from: number, to: number) =>
  rolledUpGroups(domain, from, to, false)

/** A DMARC report of a period as the analyst's fields read it: its range, counts, policy and repairs. */
export interface DmarcReportRow {
  readonly reporter: string
  readonly begin_at: number
  readonly end_at: number
  readonly messages: number
  /** Null for reports stored before passing messages were kept per report. */
  readonly dmarc_pass: number | null
  /** JSON of the policy published as the report saw it, with the report's `errors`. */
  readonly policy: string
  /** JSON array of repairs; null for reports stored before repairs were kept. */
  readonly warnings: string | null
}

/** A domain's DMARC reports in [from, to), by their begin. */
export const dmarcReports = (domain: string, from: number, to: number) =>
  periodReports<DmarcReportRow>(
    "dmarc",
    domain,
    from,
    to,
    "reporter, begin_at, end_at, messages, dmarc_pass, policy, warnings"
  )

export interface ReporterRow {
  readonly reporter: string
  readonly reports: number
  readonly messages: number
}

/**
 * Who sent `kind` reports about `domain` in [from, to). TLS reports are counted by their policies
 * for the domain (a report covering several domains counts for each, with its sessions there).
 */
export const reporters = (kind: "dmarc" | "tls", domain: string, from: number, to: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    kind === "dmarc"
      ? periodReports<ReporterRow>(
          "dmarc",
          domain,
          from,
          to,
          "reporter, COUNT(*) AS reports, SUM(messages) AS messages",
          "GROUP BY reporter ORDER BY messages DESC, reporter"
        )
      : sql<ReporterRow>`SELECT r.reporter AS reporter, COUNT(DISTINCT r.id) AS reports,
        SUM(p.successful + p.failed) AS messages
      FROM tls_policy p JOIN inbound_report r ON r.id = p.report
      WHERE p.domain = ${domain} AND p.begin_at >= ${from} AND p.begin_at < ${to}
      GROUP BY r.reporter ORDER BY messages DESC, r.reporter`
  )

export interface TlsPolicyRow {
  readonly policy_type: string
  readonly policy_domain: string
  readonly mx_hosts: string
  readonly successful: number
  readonly failed: number
  readonly failures: string
  /** The report it came from (the analyst's flags name it). */
  readonly reporter?: string
  readonly report_id?: string
}

export const tlsPolicies = (domain: string, from: number, to: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (
      sql
    ) => sql<TlsPolicyRow>`SELECT p.policy_type, p.policy_domain, p.mx_hosts, p.successful, p.failed, p.failures,
        r.reporter, r.report_id
      FROM tls_policy p JOIN inbound_report r ON r.id = p.report
      WHERE p.domain = ${domain} AND p.begin_at >= ${from} AND p.begin_at < ${to}`
  )

export interface ConflictRow {
  readonly reporter: string
  readonly report_id: string
  readonly versions: number
}

/** Report identities of `kind` for `domain` in [from, to) stored with more than one content. */
export const conflicts = (kind: "dmarc" | "tls", domain: string, from: number, to: number) =>
  periodReports<ConflictRow>(
    kind,
    domain,
    from,
    to,
    "reporter, report_id, COUNT(*) AS versions",
    "AND conflict = 1 GROUP BY reporter, report_id ORDER BY reporter, report_id LIMIT 100"
  )

/** How many reports of each kind are stored (tests and the bench). */
export const reportCounts = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{
      kind: string
      reports: number
      rows: number
    }>`SELECT kind, COUNT(*) AS reports, SUM(records) AS rows
    FROM inbound_report GROUP BY kind`
)
