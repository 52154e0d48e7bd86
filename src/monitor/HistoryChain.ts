/**
 * A domain's history as a hash chain (docs/monitoring.md "History and evidence"): entry `seq` names
 * its scan by the SHA-256 of the scan's RFC 8785 canonical JSON (`contentHash`, as report snapshots
 * do: report/Canonical.ts), and is itself hashed over its fields and the previous entry's hash, so
 * an entry edited, removed or reordered in the database breaks the chain at that entry's `seq`.
 *
 * Pure: the verification a reader can redo with the entries and the scans alone.
 */
import { Schema } from "effect"
import { DateTime } from "../records/Schemas.ts"
import { contentHashOf, sha256Of } from "../report/Canonical.ts"
import { Grade } from "../score/Model.ts"

const Hash = Schema.String.annotations({ description: "sha256:<64 lower-case hex>" })

export const HistoryEntry = Schema.Struct({
  seq: Schema.Int.annotations({ description: "1 for the domain's first entry, then one more for each" }),
  scannedAt: DateTime.annotations({ description: "when the scan's checks ran (the scan's computedAt)" }),
  grade: Grade,
  percentage: Schema.Int,
  contentHash: Hash.annotations({ description: "SHA-256 of the RFC 8785 canonical JSON of the stored scan" }),
  previousHash: Schema.NullOr(Hash).annotations({ description: "the previous entry's hash; null for seq 1" }),
  hash: Hash.annotations({
    description:
      "SHA-256 of the canonical JSON of {domain, seq, scannedAt, grade, percentage, contentHash, previousHash}"
  })
}).annotations({ identifier: "HistoryEntry" })
export type HistoryEntry = typeof HistoryEntry.Type

/** The hash of an entry: over its fields and its domain, so that no entry can stand in for another's. */
export const entryHashOf = (domain: string, entry: Omit<HistoryEntry, "hash">): string =>
  contentHashOf({
    domain,
    seq: entry.seq,
    scannedAt: entry.scannedAt,
    grade: entry.grade,
    percentage: entry.percentage,
    contentHash: entry.contentHash,
    previousHash: entry.previousHash
  })

/** The entry that follows `previous` (null: the first) for a scan whose canonical JSON is `scanJson`. */
export const nextEntry = (
  domain: string,
  previous: HistoryEntry | null,
  scan: {
    readonly scannedAt: string
    readonly grade: Grade
    readonly percentage: number
    readonly scanJson: string
  }
): HistoryEntry => {
  const unhashed = {
    seq: previous === null ? 1 : previous.seq + 1,
    scannedAt: scan.scannedAt,
    grade: scan.grade,
    percentage: scan.percentage,
    contentHash: sha256Of(scan.scanJson),
    previousHash: previous === null ? null : previous.hash
  }
  return { ...unhashed, hash: entryHashOf(domain, unhashed) }
}

export interface ChainVerdict {
  readonly chainValid: boolean
  /** The first entry that does not hold, or null. */
  readonly invalidSeq: number | null
  readonly reason: string | null
}

/**
 * Verify a domain's entries in order, each with its scan's canonical JSON as rebuilt from storage
 * (null or absent: the stored bytes could not be read): the seq numbers run 1, 2, 3 ...; each entry's
 * `previousHash` is the hash of the one before; each `hash` is its own; each scan hashes to its
 * `contentHash`. The first entry that fails is named. The first `trusted` entries are taken as
 * verified (the caller verified them before and their stored bytes are unchanged since).
 */
export const verifyChain = (
  domain: string,
  stored: ReadonlyArray<{ readonly entry: HistoryEntry; readonly scanJson?: string | null | undefined }>,
  trusted = 0
): ChainVerdict => {
  let previous: HistoryEntry | null = null
  for (const [i, { entry, scanJson }] of stored.entries()) {
    const broken = (reason: string): ChainVerdict => ({ chainValid: false, invalidSeq: i + 1, reason })
    if (i < trusted) {
      previous = entry
      continue
    }
    if (entry.seq !== i + 1) return broken(`entry ${i + 1} is missing (found seq ${entry.seq} in its place)`)
    if (entry.previousHash !== (previous === null ? null : previous.hash))
      return broken("its previousHash is not the hash of the entry before it")
    const { hash, ...unhashed } = entry
    if (entryHashOf(domain, unhashed) !== hash) return broken("its fields do not hash to its hash")
    if (scanJson === null || scanJson === undefined) return broken("its stored scan cannot be read")
    if (sha256Of(scanJson) !== entry.contentHash)
      return broken("its stored scan does not hash to its contentHash")
    previous = entry
  }
  return { chainValid: true, invalidSeq: null, reason: null }
}
