/**
 * Checking a history evidence export (`GET /history/{domain}/evidence`) offline: its entries must
 * run seq by seq, each `previousHash` the hash of the entry before, each `hash` its own fields'
 * (HistoryChain.ts). The scans themselves are not in the export; their hashes are, and each entry's
 * hash covers its scan's hash. Pure.
 */
import { Either, Schema } from "effect"
import { entryHashOf, HistoryEntry } from "./HistoryChain.ts"

export interface HistoryVerdict {
  readonly valid: boolean
  readonly entries: number
  /** The first entry that does not hold, or null. */
  readonly invalidSeq: number | null
  readonly problem: string | null
}

const Export = Schema.Struct({ domain: Schema.String, entries: Schema.Array(HistoryEntry) })

export const verifyHistory = (evidence: unknown): HistoryVerdict => {
  const decoded = Schema.decodeUnknownEither(Export)(evidence)
  if (Either.isLeft(decoded))
    return { valid: false, entries: 0, invalidSeq: null, problem: "not a history evidence export" }
  const { domain, entries } = decoded.right
  for (const [i, entry] of entries.entries()) {
    const broken = (problem: string): HistoryVerdict => ({
      valid: false,
      entries: entries.length,
      invalidSeq: entry.seq,
      problem: `entry ${entry.seq}: ${problem}`
    })
    const before = i === 0 ? null : entries[i - 1]!
    if (before !== null && entry.seq !== before.seq + 1)
      return broken(`follows entry ${before.seq}: an entry is missing or out of order`)
    if (before !== null && entry.previousHash !== before.hash)
      return broken("its previousHash is not the hash of the entry before it")
    if (entry.seq === 1 && entry.previousHash !== null) return broken("the first entry names a previous one")
    const { hash, ...unhashed } = entry
    if (entryHashOf(domain, unhashed) !== hash) return broken("its fields do not hash to its hash")
  }
  return { valid: true, entries: entries.length, invalidSeq: null, problem: null }
}
