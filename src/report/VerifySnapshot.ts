/**
 * Checking a snapshot offline: its content (everything but `evidence`) serialised as RFC 8785
 * canonical JSON must hash (SHA-256) to the `contentHash` it claims, or to the hash the reader holds
 * from elsewhere (the page, the PDF's footer, a record of their own). Pure: the same bytes give the
 * same verdict, with no network and no database.
 */
import { contentHashOf } from "./Canonical.ts"

export interface SnapshotVerdict {
  readonly valid: boolean
  /** The hash the content has. */
  readonly computedHash: string | null
  /** The hash it was checked against: the one given, else the snapshot's own `evidence.contentHash`. */
  readonly expectedHash: string | null
  /** What does not hold, in words; null when valid. */
  readonly problem: string | null
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * Verify a snapshot as served (`GET /report/snapshot/{id}`, parsed JSON) against `expectedHash`,
 * or against its own `evidence.contentHash` when none is given.
 */
export const verifySnapshot = (snapshot: unknown, expectedHash?: string): SnapshotVerdict => {
  const fail = (problem: string, computedHash: string | null = null, expected: string | null = null) => ({
    valid: false,
    computedHash,
    expectedHash: expected,
    problem
  })
  if (!isObject(snapshot)) return fail("not a JSON object")
  const { evidence, ...content } = snapshot
  const claimed =
    isObject(evidence) && typeof evidence["contentHash"] === "string" ? evidence["contentHash"] : null
  const expected = expectedHash ?? claimed
  if (expected === null) return fail("no evidence.contentHash, and no hash given to check against")
  let computed: string
  try {
    computed = contentHashOf(content)
  } catch (error) {
    return fail(`its content is not I-JSON (RFC 8785 3.1): ${String(error)}`, null, expected)
  }
  if (computed !== expected)
    return fail(
      `the content hashes to ${computed}, not ${expected}: the copy was changed after it was stored` +
        (claimed !== null && claimed !== expected ? ` (it claims ${claimed})` : ""),
      computed,
      expected
    )
  return { valid: true, computedHash: computed, expectedHash: expected, problem: null }
}
