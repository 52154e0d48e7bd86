/**
 * `domain-audit verify <snapshot.json | URL | -> [--key jwks.json | URL]`: checks, offline, that a
 * report snapshot's content hashes to its content hash (or to `--hash`, the one the reader holds),
 * or that a history evidence export's entries form an unbroken hash chain; and that the service's
 * signature over either holds (report/VerifySignature.ts): under the issuer's keys when `--key`
 * gives them, else under the key the copy carries, which proves integrity but not the issuer.
 * Pure here: parsed JSON in, lines and a verdict out.
 */
import { evidencePayloadOf } from "../monitor/SignedEvidence.ts"
import { verifyHistory } from "../monitor/VerifyHistory.ts"
import { checkSignature, type SignatureVerdict, type VerificationKey } from "../report/VerifySignature.ts"
import { verifySnapshot } from "../report/VerifySnapshot.ts"

export interface Verified {
  readonly valid: boolean
  readonly lines: ReadonlyArray<string>
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** What a signature that holds proves, in words, by the key it was checked with. */
const signatureLine = (s: SignatureVerdict): string =>
  s.status === "absent"
    ? "not signed (made before the service signed its evidence): only the hashes were checked"
    : s.keySource === "given"
      ? `signature verified: signed by key ${s.kid}, one of the keys given`
      : `signature verified with the key the copy carries (kid ${s.kid}): the copy is unchanged since it was signed, ` +
        `but that alone does not say who signed it; check with --key <service>/.well-known/domain-audit-keys.json, ` +
        `or compare the kid with the one the issuer publishes there`

/**
 * The verdict on a document: a snapshot (it has `evidence`) or a history export (it has `entries`),
 * its signature checked under `keys` when given.
 */
export const verifyDocument = (
  document: unknown,
  expectedHash?: string,
  keys?: ReadonlyArray<VerificationKey>
): Verified => {
  if (isObject(document) && Array.isArray(document["entries"]) && !("evidence" in document)) {
    const v = verifyHistory(document)
    if (!v.valid) return { valid: false, lines: [`NOT VERIFIED: ${v.problem}`] }
    const s = checkSignature(document["signature"], () => evidencePayloadOf(document), keys)
    if (s.status === "invalid")
      return { valid: false, lines: [`NOT VERIFIED: the signature does not hold: ${s.problem}`] }
    return {
      valid: true,
      lines: [
        `verified: ${v.entries} history entries of ${String(document["domain"])} form an unbroken chain`,
        signatureLine(s)
      ]
    }
  }
  const v = verifySnapshot(document, {
    ...(expectedHash !== undefined ? { expectedHash } : {}),
    ...(keys ? { keys } : {})
  })
  return v.valid
    ? { valid: true, lines: [`verified ${v.computedHash}`, signatureLine(v.signature)] }
    : { valid: false, lines: [`NOT VERIFIED: ${v.problem}`] }
}
