/**
 * The signature part of checking a copy offline (VerifySnapshot.ts, the `verify` command): a
 * document's JWS (Jws.ts) over the bytes it names. Pure.
 *
 * - Keys given (the issuer's JWK Set, e.g. its /.well-known/domain-audit-keys.json): the copy must be
 *   signed, by one of them. That proves the content and who issued it.
 * - No keys: the key the copy carries in its JWS header. That proves the copy was not changed since
 *   it was signed, not who signed it: anyone can sign a copy with a key of their own. It says who
 *   signed only when the kid is one the issuer publishes.
 * - An unsigned copy (a snapshot stored before the service signed them) is `absent`, which fails
 *   only when keys were given.
 */
import { type KeySource, verifyDetached } from "./Jws.ts"

/** A key to check against: a JWK (kty OKP, crv Ed25519, x; kid optional, its thumbprint then). */
export interface VerificationKey {
  readonly kty: string
  readonly crv?: string
  readonly x?: string
  readonly kid?: string
}

export interface SignatureVerdict {
  /** `verified`, `absent` (the copy carries none) or `invalid` (it does not hold, or is missing where keys were given). */
  readonly status: "verified" | "absent" | "invalid"
  /** The key id the signature names (RFC 7638 thumbprint), when it names one. */
  readonly kid: string | null
  /** The key it was checked with: one given, or the one the copy carries (integrity, not issuer). */
  readonly keySource: KeySource | null
  /** What does not hold, in words; null unless invalid. */
  readonly problem: string | null
}

/** The keys of a JWK Set (RFC 7517 §5) or a list of JWKs; undefined when `keys` is neither. */
export const keysOf = (keys: unknown): ReadonlyArray<VerificationKey> | undefined => {
  const list =
    typeof keys === "object" && keys !== null && !Array.isArray(keys)
      ? (keys as { keys?: unknown }).keys
      : keys
  return Array.isArray(list) &&
    list.every((k) => typeof k === "object" && k !== null && typeof (k as { kty?: unknown }).kty === "string")
    ? (list as ReadonlyArray<VerificationKey>)
    : undefined
}

/** Check `signature` (a document's member, if any) over `payload` with `keys`, or the embedded key. */
export const checkSignature = (
  signature: unknown,
  payload: () => string,
  keys?: ReadonlyArray<VerificationKey>
): SignatureVerdict => {
  if (signature === undefined)
    return keys === undefined
      ? { status: "absent", kid: null, keySource: null, problem: null }
      : {
          status: "invalid",
          kid: null,
          keySource: null,
          problem: "the copy is not signed, but keys were given to check its signature against"
        }
  if (typeof signature !== "string")
    return { status: "invalid", kid: null, keySource: null, problem: "its signature is not a JWS string" }
  let bytes: string
  try {
    bytes = payload()
  } catch (error) {
    return {
      status: "invalid",
      kid: null,
      keySource: null,
      problem: `its content is not I-JSON: ${String(error)}`
    }
  }
  const check = verifyDetached(signature, bytes, keys)
  return check.valid
    ? { status: "verified", kid: check.kid, keySource: check.keySource, problem: null }
    : { status: "invalid", kid: check.kid, keySource: null, problem: check.problem }
}
