/**
 * The history's storage: one row per entry in `scan_history`, keyed by domain and seq, with the
 * entry's fields and its scan packed (HistoryPacking.ts). Append-only in the database itself, as
 * report snapshots are (store/HistoryTable.ts): triggers refuse every UPDATE and DELETE, and an
 * INSERT that is not the next seq of its domain or does not name the previous entry's hash. What an attacker with the file can
 * still do (edit it past the triggers) the hash chain reveals (HistoryChain.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
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

/** An entry as stored, with its scan rebuilt (null when its bytes, or an earlier delta's, cannot be read). */
export interface StoredEntry {
  readonly entry: HistoryEntry
  readonly scan: Json | null
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

/** Rows in seq order, each scan rebuilt over the one before (a whole row starts afresh). */
const rebuild = (rows: ReadonlyArray<Row>): ReadonlyArray<StoredEntry> => {
  let previous: Json | null = null
  return rows.map((row) => {
    let scan: Json | null = null
    try {
      if (row.packing === "whole") scan = unpack(row.body, undefined)
      else if (previous !== null) scan = unpack(row.body, previous)
    } catch {
      scan = null
    }
    previous = scan
    return { entry: entryOf(row), scan }
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
        const last = rebuild(rows).at(-1)
        return last !== undefined && last.entry.seq === seq ? Option.some(last) : Option.none()
      })

    const lastSeq = (domain: string) =>
      Effect.map(
        sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM scan_history WHERE domain = ${domain}`,
        (rows) => rows[0]?.seq ?? 0
      )

    /** Every entry of `domain`, oldest first, with its scan. */
    const all = (domain: string) =>
      Effect.map(
        sql<Row>`SELECT seq, scanned_at, grade, percentage, content_hash, previous_hash, hash, packing, body
          FROM scan_history WHERE domain = ${domain} ORDER BY seq`,
        rebuild
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
          const whole = isKeyframe(entry.seq) || last === null || last.scan === null
          const body = whole ? packWhole(scan) : packDelta(last.scan!, scan)
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

    return { append, all, at, bytes } as const
  })
}) {}
