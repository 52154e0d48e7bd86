/**
 * The history's storage: one row per entry in `scan_history`, keyed by domain and seq, with the
 * entry's fields and its scan packed (HistoryPacking.ts). Append-only in the database itself, as
 * report snapshots are (store/HistoryTable.ts): triggers refuse every UPDATE and DELETE, and an
 * INSERT that is not the next seq of its domain or does not name the previous entry's hash. What an attacker with the file can
 * still do (edit it past the triggers) the hash chain reveals (HistoryChain.ts).
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { canonicalJson } from "../report/Canonical.ts"
import type { Grade } from "../score/Model.ts"
import type { Json } from "./Change.ts"
import type { HistoryEntry } from "./HistoryChain.ts"
import { isKeyframe, packDelta, packWhole, unpack } from "./HistoryPacking.ts"

interface Row {
  readonly seq: number
  readonly scanned_at: string
  readonly grade: string
  readonly percentage: number
  readonly content_hash: string
  readonly previous_hash: string | null
  readonly hash: string
  readonly packing: string
  readonly body: Uint8Array
}

/**
 * An entry as stored: its fields; the RFC 8785 canonical JSON of its scan as rebuilt (what its
 * content hash is over), null when its bytes (or an earlier delta's) cannot be read, undefined when
 * it was not asked for; and a digest of the whole row as stored, which changes with any byte of it.
 */
export interface StoredEntry {
  readonly entry: HistoryEntry
  readonly scanJson: string | null | undefined
  readonly rowDigest: string
}

const entryOf = (row: Row): HistoryEntry => ({
  seq: row.seq,
  scannedAt: row.scanned_at,
  // As stored: an edited grade is caught by the entry's hash, not hidden by a decode error.
  grade: row.grade as Grade,
  percentage: row.percentage,
  contentHash: row.content_hash,
  previousHash: row.previous_hash,
  hash: row.hash
})

/** SHA-256 of a row's columns, unambiguously joined (a JSON array, then the body's bytes). */
const rowDigestOf = (row: Row): string =>
  createHash("sha256")
    .update(
      JSON.stringify([
        row.seq,
        row.scanned_at,
        row.grade,
        row.percentage,
        row.content_hash,
        row.previous_hash,
        row.hash,
        row.packing
      ]) + "\n"
    )
    .update(row.body)
    .digest("hex")

/**
 * Rows in seq order, with the canonical JSON of the scans from seq `from` on: each rebuilt over the
 * one before (a whole row starts afresh, a delta changes the previous scan in place), starting at
 * the last whole row at or before `from`; rows before it are not unpacked at all.
 */
const rebuild = (rows: ReadonlyArray<Row>, from: number): ReadonlyArray<StoredEntry> => {
  const start = rows.filter((r) => r.seq <= from && r.packing === "whole").at(-1)?.seq ?? 1
  let previous: Json | null = null
  return rows.map((row) => {
    let scanJson: string | null | undefined = undefined
    if (row.seq >= start) {
      let scan: Json | null = null
      try {
        if (row.packing === "whole") scan = unpack(row.body, undefined)
        else if (previous !== null) scan = unpack(row.body, previous)
      } catch {
        scan = null
      }
      previous = scan
      if (row.seq >= from)
        try {
          scanJson = scan === null ? null : canonicalJson(scan)
        } catch {
          scanJson = null
        }
    }
    return { entry: entryOf(row), scanJson, rowDigest: rowDigestOf(row) }
  })
}

export class HistoryStore extends Effect.Service<HistoryStore>()("HistoryStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One append at a time in this process: read the last entry, then insert its successor.
    const lock = yield* Effect.makeSemaphore(1)

    /** Rows of `domain` with seq in [from, to], oldest first. */
    const rowsBetween = (domain: string, from: number, to: number) =>
      sql<Row>`SELECT seq, scanned_at, grade, percentage, content_hash, previous_hash, hash, packing, body
        FROM scan_history WHERE domain = ${domain} AND seq BETWEEN ${from} AND ${to} ORDER BY seq`

    /** The whole row at or before `seq` from which entry `seq` is rebuilt. */
    const keyframeOf = (domain: string, seq: number) =>
      Effect.map(
        sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM scan_history
          WHERE domain = ${domain} AND seq <= ${seq} AND packing = 'whole'`,
        (rows) => rows[0]?.seq ?? 1
      )

    /** Entry `seq` of `domain` with its scan, if there is one. */
    const at = (domain: string, seq: number) =>
      Effect.gen(function* () {
        const rows = yield* rowsBetween(domain, yield* keyframeOf(domain, seq), seq)
        const last = rebuild(rows, seq).at(-1)
        return last !== undefined && last.entry.seq === seq ? Option.some(last) : Option.none()
      })

    const lastSeq = (domain: string) =>
      Effect.map(
        sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM scan_history WHERE domain = ${domain}`,
        (rows) => rows[0]?.seq ?? 0
      )

    /**
     * Every entry of `domain`, oldest first, with its scan from the seq that `from` answers for the
     * entries and their rows' digests on (default 1: every scan).
     */
    const all = (
      domain: string,
      from: (
        rows: ReadonlyArray<{ readonly entry: HistoryEntry; readonly rowDigest: string }>
      ) => number = () => 1
    ) =>
      Effect.map(
        sql<Row>`SELECT seq, scanned_at, grade, percentage, content_hash, previous_hash, hash, packing, body
          FROM scan_history WHERE domain = ${domain} ORDER BY seq`,
        (rows) =>
          rebuild(rows, from(rows.map((row) => ({ entry: entryOf(row), rowDigest: rowDigestOf(row) }))))
      )

    /**
     * Append the entry `make` builds over the domain's last entry (or none), storing `scan` whole or
     * as a delta over the last entry's scan. `make` returns None to append nothing (the same scan
     * again): the last entry is returned.
     */
    const append = (
      domain: string,
      scan: Json,
      make: (last: StoredEntry | null) => Option.Option<HistoryEntry>
    ): Effect.Effect<Option.Option<HistoryEntry>, unknown> =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const seq = yield* lastSeq(domain)
          const last = seq === 0 ? null : Option.getOrNull(yield* at(domain, seq))
          const next = make(last)
          // The same scan again: the entry that holds it already.
          if (Option.isNone(next)) return Option.fromNullable(last?.entry)
          const entry = next.value
          const whole = isKeyframe(entry.seq) || last === null || last.scanJson === null
          const body = whole ? packWhole(scan) : packDelta(JSON.parse(last.scanJson!) as Json, scan)
          yield* sql`INSERT INTO scan_history
            (domain, seq, scanned_at, grade, percentage, content_hash, previous_hash, hash, packing, body)
            VALUES (${domain}, ${entry.seq}, ${entry.scannedAt}, ${entry.grade}, ${entry.percentage},
              ${entry.contentHash}, ${entry.previousHash}, ${entry.hash}, ${whole ? "whole" : "delta"}, ${body})`
          return next
        })
      )

    /** Bytes stored for `domain` (entry fields and packed scans): what docs/bench.md reports per entry. */
    const bytes = (domain: string) =>
      Effect.map(
        sql<{ entries: number; bytes: number | null }>`SELECT count(*) AS entries,
          sum(length(body) + length(content_hash) + length(coalesce(previous_hash, '')) + length(hash)
            + length(scanned_at) + length(grade) + length(domain) + 16) AS bytes
          FROM scan_history WHERE domain = ${domain}`,
        (rows) => ({ entries: rows[0]?.entries ?? 0, bytes: rows[0]?.bytes ?? 0 })
      )

    return { append, all, at, lastSeq, bytes } as const
  })
}) {}
