/**
 * DKIM key records (RFC 6376 3.6.1, Ed25519 per RFC 8463, SHA-1 deprecation per RFC 8301).
 * The key length is measured from the key material itself (node:crypto), not guessed from the
 * length of the base64 text. `parseDkimKey` is total.
 */
import { Schema } from "effect"
import { createPublicKey } from "node:crypto"

/** A key's verdict: `revoked` is an empty p= (RFC 6376 3.6.1), told apart from a broken key. */
export const DkimKeyStatus = Schema.Literal("pass", "warning", "fail", "revoked")

export interface DkimTag {
  readonly name: string
  readonly value: string
}

export interface DkimKey {
  readonly record: string
  readonly tags: ReadonlyArray<DkimTag>
  /** `k=`: rsa (default) or ed25519; other values are kept as written. */
  readonly keyType: string
  /** Bits of the RSA modulus, 256 for Ed25519; null when the key could not be decoded. */
  readonly keyLength: number | null
  /** `p=` empty: the key was revoked (RFC 6376 3.6.1). */
  readonly revoked: boolean
  /** `t=y`: the domain is testing DKIM; verifiers must not treat failures differently. */
  readonly testing: boolean
  /** `t=s`: the i= domain must equal d= exactly. */
  readonly strict: boolean
  readonly hashAlgorithms: ReadonlyArray<string> | null
  readonly serviceTypes: ReadonlyArray<string> | null
  readonly valid: boolean
  readonly status: typeof DkimKeyStatus.Type
  readonly errors: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<string>
}

/** RFC 6376 3.2 tag-list: `tag=value` pairs separated by `;`, whitespace around them ignored. */
export const parseTagList = (
  text: string
): { tags: ReadonlyArray<DkimTag>; errors: ReadonlyArray<string> } => {
  const tags: Array<DkimTag> = []
  const errors: Array<string> = []
  for (const part of text.split(";")) {
    if (part.trim() === "") continue
    const eq = part.indexOf("=")
    const name = eq < 0 ? "" : part.slice(0, eq).trim()
    if (eq < 0 || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      errors.push(`'${part.trim()}' is not a tag=value pair`)
      continue
    }
    if (tags.some((t) => t.name === name)) {
      // RFC 6376 3.2: duplicate tags make the whole tag-list invalid.
      errors.push(`duplicate tag '${name}' (the record is invalid)`)
      continue
    }
    tags.push({ name, value: part.slice(eq + 1).trim() })
  }
  return { tags, errors }
}

/** Heuristic used for discovery: does this TXT look like a DKIM key record? */
export const looksLikeDkimKey = (txt: string): boolean =>
  /^\s*v\s*=\s*DKIM1\b/i.test(txt) || /(^|;)\s*[pk]\s*=/.test(txt)

// The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); RFC 8463 publishes the bare key.
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex")

const measure = (keyType: string, material: Buffer): { bits: number } | { error: string } => {
  try {
    if (keyType === "ed25519") {
      if (material.length !== 32)
        return { error: `an Ed25519 key is 32 bytes, this one is ${material.length}` }
      createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, material]), format: "der", type: "spki" })
      return { bits: 256 }
    }
    let key
    try {
      key = createPublicKey({ key: material, format: "der", type: "spki" })
    } catch {
      // Some signers publish a bare PKCS#1 RSAPublicKey; verifiers such as OpenDKIM accept it.
      key = createPublicKey({ key: material, format: "der", type: "pkcs1" })
    }
    if (key.asymmetricKeyType !== "rsa") return { error: `k=rsa but the key is ${key.asymmetricKeyType}` }
    const bits = key.asymmetricKeyDetails?.modulusLength
    return bits === undefined ? { error: "the RSA modulus length could not be read" } : { bits }
  } catch (e) {
    return { error: `the key material does not decode (${e instanceof Error ? e.message : String(e)})` }
  }
}

/** Parses and judges one DKIM key record (RFC 6376 3.6.1). Never throws. */
export const parseDkimKey = (record: string): DkimKey => {
  const { tags, errors: syntax } = parseTagList(record)
  const errors = [...syntax]
  const warnings: Array<string> = []
  const tag = (name: string) => tags.find((t) => t.name === name)?.value
  const list = (name: string) =>
    tag(name)
      ?.split(":")
      .map((s) => s.trim().toLowerCase()) ?? null

  const v = tag("v")
  if (v !== undefined && v !== "DKIM1") errors.push(`v must be DKIM1, found '${v}'`)
  if (v !== undefined && tags[0]?.name !== "v") errors.push("v must be the first tag when present")
  const keyType = (tag("k") ?? "rsa").toLowerCase()
  const p = tag("p")
  const hashAlgorithms = list("h")
  const serviceTypes = list("s")
  const flags = list("t") ?? []
  const testing = flags.includes("y")
  const strict = flags.includes("s")
  let keyLength: number | null = null
  let revoked = false

  if (p === undefined) errors.push("the required p= tag is missing")
  else if (p.replace(/\s+/g, "") === "") revoked = true
  else if (keyType !== "rsa" && keyType !== "ed25519") errors.push(`unknown key type k=${keyType}`)
  else {
    const b64 = p.replace(/\s+/g, "")
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) errors.push("p= is not base64")
    else {
      const m = measure(keyType, Buffer.from(b64, "base64"))
      if ("error" in m) errors.push(m.error)
      else keyLength = m.bits
    }
  }
  if (keyType === "rsa" && keyLength !== null) {
    if (keyLength < 1024)
      errors.push(`RSA-${keyLength} is too weak: verifiers reject keys under 1024 bits (RFC 8301)`)
    else if (keyLength < 2048)
      warnings.push(`RSA-${keyLength} is weak: use 2048 bits (RFC 8301 recommends at least 2048)`)
  }
  if (hashAlgorithms !== null && !hashAlgorithms.includes("sha256"))
    errors.push(`h=${hashAlgorithms.join(":")} allows no sha256: rsa-sha1 must not be used (RFC 8301)`)
  if (serviceTypes !== null && !serviceTypes.includes("*") && !serviceTypes.includes("email"))
    errors.push(`s=${serviceTypes.join(":")} does not allow email`)
  if (testing) warnings.push("t=y: the domain is testing DKIM, verifiers may treat signatures as unsigned")

  const valid = errors.length === 0 && !revoked
  return {
    record,
    tags,
    keyType,
    keyLength,
    revoked,
    testing,
    strict,
    hashAlgorithms,
    serviceTypes,
    valid,
    status:
      revoked && errors.length === 0 ? "revoked" : !valid ? "fail" : warnings.length > 0 ? "warning" : "pass",
    errors,
    warnings
  }
}
