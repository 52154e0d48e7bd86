/**
 * Ed25519 signatures over evidence, as a JWS with a detached payload (docs/reports.md "Signature").
 * Pure: node:crypto's Ed25519 is deterministic (RFC 8032 §5.1.6), so the same key and bytes give the
 * same signature.
 *
 * - Detached content, RFC 7515 Appendix F: the compact serialisation with an empty payload part,
 *   `<protected header>..<signature>`. The payload is the bytes the content hash already covers
 *   (the RFC 8785 canonical JSON), so "the content" has one definition; the reader rebuilds it from
 *   the document and checks it.
 * - `b64` is left at its default (true, RFC 7797 §3): the signing input is the base64url of the
 *   payload, which every JOSE library verifies without the `crit` extension.
 * - `alg: EdDSA` with an OKP key on curve Ed25519 (RFC 8037 §3.1, §2). Verification takes no other
 *   algorithm, whatever the header says (RFC 8725 §3.1: the verifier, not the token, picks it).
 * - `kid` is the key's JWK thumbprint (RFC 7638 §3; OKP members crv, kty, x: RFC 8037 §2), so a
 *   key id names exactly one key. The protected header also carries the public key (`jwk`, RFC 7515
 *   §4.1.3), so a copy that left the service can be checked on its own; that proves it was not
 *   changed since signing, and who signed it only when the kid is the issuer's published one.
 */
import { createHash, createPublicKey, type KeyObject, sign, verify } from "node:crypto"
import { Schema } from "effect"

/** A public Ed25519 signing key as a JWK (RFC 7517 §4, RFC 8037 §2), as the key set publishes it. */
export const PublicJwk = Schema.Struct({
  kty: Schema.Literal("OKP"),
  crv: Schema.Literal("Ed25519"),
  /** The public key, base64url (RFC 8037 §2). */
  x: Schema.String,
  /** Its RFC 7638 thumbprint. */
  kid: Schema.String,
  alg: Schema.Literal("EdDSA"),
  use: Schema.Literal("sig")
}).annotations({ identifier: "PublicJwk" })
export type PublicJwk = typeof PublicJwk.Type

/** A JWK Set (RFC 7517 §5): the keys a copy's signature may be checked against. */
export const JwkSet = Schema.Struct({ keys: Schema.Array(PublicJwk) }).annotations({
  identifier: "JwkSet",
  description: "The service's public signing keys (RFC 7517 JWK Set; Ed25519, RFC 8037)."
})
export type JwkSet = typeof JwkSet.Type

const base64url = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url")

/** RFC 7638 §3 for an OKP key (RFC 8037 §2): SHA-256 of {"crv","kty","x"} in that order, base64url. */
export const thumbprintOf = (key: { readonly crv: string; readonly kty: string; readonly x: string }) =>
  base64url(
    createHash("sha256")
      .update(JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x }))
      .digest()
  )

/** The public JWK of an Ed25519 key (private or public KeyObject). */
export const publicJwkOf = (key: KeyObject): PublicJwk => {
  const { crv, x } = createPublicKey(key).export({ format: "jwk" })
  if (crv !== "Ed25519" || typeof x !== "string") throw new Error("the signing key is not an Ed25519 key")
  return {
    kty: "OKP",
    crv: "Ed25519",
    x,
    kid: thumbprintOf({ crv, kty: "OKP", x }),
    alg: "EdDSA",
    use: "sig"
  }
}

/** RFC 7515 §5.1 step 4-5: ASCII(BASE64URL(protected) || '.' || BASE64URL(payload)). */
const signingInput = (protectedPart: string, payload: string) =>
  Buffer.from(`${protectedPart}.${base64url(Buffer.from(payload, "utf8"))}`, "ascii")

/** A compact JWS of `payload` (UTF-8) with the payload part left empty (RFC 7515 Appendix F). */
export const signDetached = (payload: string, privateKey: KeyObject, jwk: PublicJwk): string => {
  const protectedPart = base64url(JSON.stringify({ alg: "EdDSA", kid: jwk.kid, jwk }))
  return `${protectedPart}..${base64url(sign(null, signingInput(protectedPart, payload), privateKey))}`
}

/** Which key a signature was checked with: one the reader gave, or the one the copy carries. */
export type KeySource = "given" | "embedded"

export type SignatureCheck =
  | { readonly valid: true; readonly kid: string; readonly keySource: KeySource }
  | { readonly valid: false; readonly kid: string | null; readonly problem: string }

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

const headerOf = (part: string): Record<string, unknown> | undefined => {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"))
    return isObject(header) ? header : undefined
  } catch {
    return undefined
  }
}

const isOkpEd25519 = (jwk: unknown): jwk is { kty: "OKP"; crv: "Ed25519"; x: string } =>
  isObject(jwk) && jwk["kty"] === "OKP" && jwk["crv"] === "Ed25519" && typeof jwk["x"] === "string"

/**
 * Check a detached compact JWS over `payload` (RFC 7515 §5.2, Appendix F): with `keys` given, the
 * key among them whose kid the header names; without, the key the header carries, which must hash
 * to that kid (RFC 7638).
 */
export const verifyDetached = (
  jws: string,
  payload: string,
  keys?: ReadonlyArray<{
    readonly kid?: string
    readonly kty: string
    readonly crv?: string
    readonly x?: string
  }>
): SignatureCheck => {
  const parts = jws.split(".")
  if (parts.length !== 3 || parts[1] !== "")
    return { valid: false, kid: null, problem: "not a compact JWS with a detached payload" }
  const [protectedPart = "", , signature = ""] = parts
  const header = headerOf(protectedPart)
  if (header === undefined) return { valid: false, kid: null, problem: "its protected header is not JSON" }
  const kid = typeof header["kid"] === "string" ? header["kid"] : null
  const fail = (problem: string): SignatureCheck => ({ valid: false, kid, problem })
  if (header["alg"] !== "EdDSA") return fail(`its algorithm is ${String(header["alg"])}, not EdDSA`)
  // RFC 7515 §4.1.11: a critical extension this verifier does not know makes the JWS invalid.
  if ("crit" in header || (header["b64"] !== undefined && header["b64"] !== true))
    return fail("it uses a JWS extension (crit, b64) this verifier does not take")
  if (kid === null) return fail("its header names no key (kid)")
  let key: { kty: "OKP"; crv: "Ed25519"; x: string }
  let keySource: KeySource
  if (keys !== undefined) {
    const found = keys.find((k) => (k.kid ?? (isOkpEd25519(k) ? thumbprintOf(k) : undefined)) === kid)
    if (found === undefined)
      return fail(`it was signed by key ${kid}, which is not among the keys given: another signer's copy`)
    if (!isOkpEd25519(found)) return fail(`the given key ${kid} is not an Ed25519 key`)
    key = found
    keySource = "given"
  } else {
    const embedded = header["jwk"]
    if (!isOkpEd25519(embedded)) return fail("it carries no Ed25519 key (jwk), and no key was given")
    if (thumbprintOf(embedded) !== kid) return fail("the key it carries does not match its kid")
    key = embedded
    keySource = "embedded"
  }
  let publicKey: KeyObject
  try {
    publicKey = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.x }, format: "jwk" })
  } catch {
    return fail(`key ${kid} is not a valid Ed25519 public key`)
  }
  let ok: boolean
  try {
    ok = verify(null, signingInput(protectedPart, payload), publicKey, Buffer.from(signature, "base64url"))
  } catch {
    ok = false
  }
  return ok
    ? { valid: true, kid, keySource }
    : fail(`it does not verify under key ${kid}: the content was changed after it was signed`)
}
