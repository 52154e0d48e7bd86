/**
 * How a report is written (`storeReport` in InboundReports.ts): its INSERT, asking in itself whether
 * its identity is stored with other content; the upsert of its DKIM selectors; and a DMARC report
 * of up to `CHUNK` records written in one synchronous transaction on the connection itself
 * (SqliteConnection.ts), its statements prepared once.
 */
import type { DmarcRowInsert } from "./DmarcRows.ts"
import { dmarcRowInsert, dmarcRowValues } from "./DmarcRows.ts"
import type { AuthenticityColumns } from "./ReportAuthenticity.ts"
import type { SqliteDatabase, SqliteStatement } from "./SqliteConnection.ts"

export interface ReportHead {
  readonly kind: "dmarc" | "tls"
  readonly domain: string
  readonly reporter: string
  readonly reportId: string
  readonly begin: number
  readonly end: number
  readonly records: number
  readonly messages: number
  readonly contact: string | null
  /** JSON of what the sender says the domain published (DMARC) or of its policies (TLS). */
  readonly policy: string
  /** sha256 of the report as decompressed: the same bytes again are a duplicate. */
  readonly contentHash: string
  /** What was repaired to read it (the 202's `warnings`). */
  readonly warnings?: ReadonlyArray<string>
  /** DMARC: messages of its records with an aligned SPF or DKIM pass. */
  readonly dmarcPass?: number
}

/** What storing a report did: written or a duplicate, and whether its identity was seen with other content. */
export interface Stored {
  readonly fresh: boolean
  readonly conflict: boolean
}

/** Rows per INSERT statement: well under SQLite's 32,766 bound parameters. */
export const CHUNK = 500

export const chunks = <A>(rows: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK))
  return out
}

const selectorInserts = new Map<number, string>()

/** The upsert of `n` selectors of one domain, its text made once per `n`. */
export const selectorInsert = (n: number) => {
  let text = selectorInserts.get(n)
  if (text === undefined) {
    text = `INSERT INTO dmarc_selector (domain, selector, last_seen) VALUES ${Array(n).fill("(?, ?, ?)").join(", ")}
      ON CONFLICT (domain, selector) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)`
    selectorInserts.set(n, text)
  }
  return text
}

/**
 * The INSERT of a report: whether its identity is stored with other content is asked in the
 * INSERT itself (a fresh report, nearly always without a conflict, costs one statement where it
 * cost two); no row back when the same content is stored (a duplicate). Values: `reportValues`.
 */
export const REPORT_INSERT = `INSERT INTO inbound_report
  (kind, domain, reporter, report_id, begin_at, end_at, received_at, records, messages, contact, policy, content_hash,
    warnings, dmarc_pass, authenticated, authenticated_for, authentication, conflict)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
    EXISTS (SELECT 1 FROM inbound_report WHERE kind = ? AND reporter = ? AND report_id = ? AND domain = ? AND content_hash <> ?)
  WHERE true
  ON CONFLICT (kind, reporter, report_id, domain, content_hash) DO NOTHING RETURNING id, conflict`

export const reportValues = (
  head: ReportHead,
  receivedAt: number,
  verdict: AuthenticityColumns | undefined
) => [
  head.kind,
  head.domain,
  head.reporter,
  head.reportId,
  head.begin,
  head.end,
  receivedAt,
  head.records,
  head.messages,
  head.contact,
  head.policy,
  head.contentHash,
  JSON.stringify(head.warnings ?? []),
  head.dmarcPass ?? null,
  verdict?.authenticated ?? 0,
  verdict?.authenticated_for ?? null,
  verdict?.authentication ?? "stored before reports were authenticated",
  head.kind,
  head.reporter,
  head.reportId,
  head.domain,
  head.contentHash
]

/** The identity stored with other content is flagged too. */
export const FLAG_CONFLICTS = `UPDATE inbound_report SET conflict = 1
  WHERE kind = ? AND reporter = ? AND report_id = ? AND domain = ? AND content_hash <> ?`

/** A connection's statements of `writeDmarc`, prepared once (by their text). */
const prepared = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>()

const statement = (db: SqliteDatabase, text: string) => {
  let ofDb = prepared.get(db)
  if (ofDb === undefined) prepared.set(db, (ofDb = new Map()))
  let s = ofDb.get(text)
  if (s === undefined) ofDb.set(text, (s = db.prepare(text)))
  return s
}

/**
 * A DMARC report of at most `CHUNK` rows written in one synchronous transaction on the connection
 * itself, as `storeReport` writes it through the SQL client (the same statements, in the same
 * order), or nothing and undefined when it is a duplicate (`storeReport` then answers as for one).
 */
export const writeDmarc = (
  db: SqliteDatabase,
  head: ReportHead,
  receivedAt: number,
  rows: { readonly rows: ReadonlyArray<DmarcRowInsert>; readonly selectors: ReadonlyArray<string> },
  verdict: AuthenticityColumns | undefined
) =>
  db.transaction((): Stored | undefined => {
    const inserted = statement(db, REPORT_INSERT).get(...reportValues(head, receivedAt, verdict)) as
      { id: number; conflict: number } | undefined
    if (inserted === undefined) return undefined
    const conflict = inserted.conflict === 1
    if (conflict)
      statement(db, FLAG_CONFLICTS).run(
        head.kind,
        head.reporter,
        head.reportId,
        head.domain,
        head.contentHash
      )
    statement(db, "INSERT INTO dmarc_pending (report) VALUES (?)").run(inserted.id)
    if (rows.rows.length > 0)
      statement(db, dmarcRowInsert(rows.rows.length)).run(
        ...dmarcRowValues(inserted.id, head.domain, head.begin, rows.rows)
      )
    for (const selectors of chunks(rows.selectors))
      statement(db, selectorInsert(selectors.length)).run(
        ...selectors.flatMap((selector) => [head.domain, selector, head.end])
      )
    return { fresh: true, conflict }
  })()
