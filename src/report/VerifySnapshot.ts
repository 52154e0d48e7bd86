/**
 * Checking a snapshot offline: its content (everything but `evidence`) serialised as RFC 8785
 * canonical JSON must hash (SHA-256) to the `contentHash` it claims, or to the hash the reader holds
 * from elsewhere (the page, the PDF's footer, a record of their own); and when it carries the
 * service's signature (`evidence.signature`, a detached JWS over those same bytes: Jws.ts), that
 * must verify, under the keys the reader gives or else the key the copy carries
 * (VerifySignature.ts: the latter proves integrity, not the issuer). Pure: the same bytes give the
 * same verdict, with no network and no database.
 */
import { canonicalJson, sha256Of } from "./Canonical.ts"
import { checkSignature, type SignatureVerdict, type VerificationKey } from "./VerifySignature.ts"

export interface SnapshotVerdict {
  readonly valid: boolean
  /** The hash the content has. */
  readonly computedHash: string | null
  /** The hash it was checked against: the one given, else the snapshot's own `evidence.contentHash`. */
  readonly expectedHash: string | null
  /** What failed first: the content `hash`, or the `signature`; null when valid. */
  readonly failed: "hash" | "signature" | null
  /** The signature's verdict (`absent` for a snapshot stored before the service signed them). */
  readonly signature: SignatureVerdict
  /** What does not hold, in words; null when valid. */
  readonly problem: string | null
}

export interface VerifyOptions {
  /** The hash to check against instead of the snapshot's own `evidence.contentHash`. */
  readonly expectedHash?: string
  /**
   * The issuer's keys (the JWKs of its /.well-known/domain-audit-keys.json): the snapshot must be
   * signed by one of them. Without them, a signature is checked with the key the copy carries.
   */
  readonly keys?: ReadonlyArray<VerificationKey>
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

const UNCHECKED: SignatureVerdict = { status: "absent", kid: null, keySource: null, problem: null }

/**
 * Verify a snapshot as served (`GET /report/snapshot/{id}`, parsed JSON): its content hash against
 * `expectedHash` (a string, or `options.expectedHash`) or its own `evidence.contentHash`, and its
 * signature when it has one (or must have one: `options.keys`).
 */
export const verifySnapshot = (snapshot: unknown, options?: string | VerifyOptions): SnapshotVerdict => {
  const { expectedHash, keys }: VerifyOptions =
    typeof options === "string" ? { expectedHash: options } : (options ?? {})
  const fail = (
    problem: string,
    computedHash: string | null = null,
    expected: string | null = null,
    signature: SignatureVerdict = UNCHECKED,
    failed: "hash" | "signature" = "hash"
  ): SnapshotVerdict => ({ valid: false, computedHash, expectedHash: expected, failed, signature, problem })
  if (!isObject(snapshot)) return fail("not a JSON object")
  const { evidence, ...content } = snapshot
  const claimed =
    isObject(evidence) && typeof evidence["contentHash"] === "string" ? evidence["contentHash"] : null
  const expected = expectedHash ?? claimed
  if (expected === null) return fail("no evidence.contentHash, and no hash given to check against")
  let canonical: string
  try {
    canonical = canonicalJson(content)
  } catch (error) {
    return fail(`its content is not I-JSON (RFC 8785 3.1): ${String(error)}`, null, expected)
  }
  const computed = sha256Of(canonical)
  const signature = checkSignature(
    isObject(evidence) ? evidence["signature"] : undefined,
    () => canonical,
    keys
  )
  if (computed !== expected)
    return fail(
      `the content hashes to ${computed}, not ${expected}: the copy was changed after it was stored` +
        (claimed !== null && claimed !== expected ? ` (it claims ${claimed})` : ""),
      computed,
      expected,
      signature
    )
  if (signature.status === "invalid")
    return fail(
      `the signature does not hold: ${signature.problem}`,
      computed,
      expected,
      signature,
      "signature"
    )
  return {
    valid: true,
    computedHash: computed,
    expectedHash: expected,
    failed: null,
    signature,
    problem: null
  }
}
