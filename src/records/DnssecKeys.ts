/**
 * DNSSEC key arithmetic, pure: key tags (RFC 4034 App. B), DS digests (RFC 4034 5.1.4, RFC 4509,
 * RFC 6605, RFC 9563), RSA key sizes (RFC 3110 2), and the registry's names and verdicts
 * (`DnssecRegistry.ts`: RFC 9904, RFC 9905).
 */
import { createHash, getHashes } from "node:crypto"
import type { DnskeyData } from "./DnsRdata.ts"

import { type AlgorithmSecurity, algorithmRow, digestRow } from "./DnssecRegistry.ts"

export { AlgorithmSecurity } from "./DnssecRegistry.ts"

/** The registry mnemonic of a DNSKEY algorithm number (`DnssecRegistry.ts`). */
export const algorithmName = (alg: number): string => algorithmRow(alg).name
/** Our verdict on signing with it: RFC 9904 Table 2 "Use for DNSSEC Signing" (`DnssecRegistry.ts`). */
export const algorithmSecurity = (alg: number): AlgorithmSecurity => algorithmRow(alg).verdict

const SECURITY_ORDER: ReadonlyArray<AlgorithmSecurity> = [
  "insecure",
  "deprecated",
  "unknown",
  "acceptable",
  "modern"
]

/** The weakest of several standings (an empty list is "unknown"). */
export const weakest = (all: ReadonlyArray<AlgorithmSecurity>): AlgorithmSecurity =>
  all.length === 0
    ? "unknown"
    : all.reduce((a, b) => (SECURITY_ORDER.indexOf(a) <= SECURITY_ORDER.indexOf(b) ? a : b))

/** Node hash names of the digest types we can compute; SM3 only where OpenSSL provides it. */
const HASHES: Record<number, string> = { 1: "sha1", 2: "sha256", 4: "sha384", 6: "sm3" }
const AVAILABLE = new Set(getHashes())

/** The node hash for a DS digest type, or undefined when we cannot compute it (GOST, unassigned). */
export const digestHash = (digestType: number): string | undefined => {
  const h = HASHES[digestType]
  return h !== undefined && AVAILABLE.has(h) ? h : undefined
}
export const digestName = (digestType: number): string => digestRow(digestType).name

/** DNSKEY RDATA on the wire: flags, protocol, algorithm, public key (RFC 4034 2.1). */
export const dnskeyRdata = (key: DnskeyData): Buffer => {
  const pub = Buffer.from(key.publicKey, "base64")
  const out = Buffer.alloc(4 + pub.length)
  out.writeUInt16BE(key.flags & 0xffff, 0)
  out[2] = key.protocol & 0xff
  out[3] = key.algorithm & 0xff
  pub.copy(out, 4)
  return out
}

/** RFC 4034 Appendix B; algorithm 1 uses the low 16 bits of the modulus (B.1). */
export const keyTag = (key: DnskeyData): number => {
  const rdata = dnskeyRdata(key)
  if (key.algorithm === 1) return rdata.length >= 4 ? rdata.readUInt16BE(rdata.length - 3) : 0
  let ac = 0
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8
  ac += (ac >> 16) & 0xffff
  return ac & 0xffff
}

/** Canonical wire form of an owner name (RFC 4034 6.2: lower case, uncompressed). */
export const nameWire = (name: string): Buffer => {
  const labels = name
    .replace(/\.$/, "")
    .toLowerCase()
    .split(".")
    .filter((l) => l.length > 0)
  return Buffer.concat([
    ...labels.map((l) => {
      const bytes = Buffer.from(l, "utf8")
      return Buffer.concat([Buffer.from([Math.min(63, bytes.length)]), bytes.subarray(0, 63)])
    }),
    Buffer.from([0])
  ])
}

/** The DS digest of a DNSKEY (RFC 4034 5.1.4): hash(owner | rdata), upper-case hex; undefined if unsupported. */
export const dsDigest = (owner: string, key: DnskeyData, digestType: number): string | undefined => {
  const hash = digestHash(digestType)
  if (!hash) return undefined
  return createHash(hash)
    .update(Buffer.concat([nameWire(owner), dnskeyRdata(key)]))
    .digest("hex")
    .toUpperCase()
}

/** Flags bits (RFC 4034 2.1.1): Zone Key (bit 7 → 256) and Secure Entry Point (bit 15 → 1). */
export const keyRole = (flags: number): "KSK" | "ZSK" | "other" =>
  (flags & 0x100) === 0 ? "other" : (flags & 1) === 1 ? "KSK" : "ZSK"

/**
 * The modulus size in bits of an RSA DNSKEY (RFC 3110 2: exponent length in one octet, or zero and
 * two octets, then the exponent, then the modulus); undefined for a malformed key.
 */
export const rsaKeyBits = (publicKey: string): number | undefined => {
  const k = Buffer.from(publicKey, "base64")
  if (k.length < 1) return undefined
  const long = k[0] === 0
  if (long && k.length < 3) return undefined
  const expLen = long ? k.readUInt16BE(1) : k[0]!
  let start = (long ? 3 : 1) + expLen
  if (expLen === 0 || start >= k.length) return undefined
  while (start < k.length && k[start] === 0) start++
  if (start >= k.length) return undefined
  return (k.length - start - 1) * 8 + (32 - Math.clz32(k[start]!))
}

/** RSA algorithms and their key size bounds (RFC 3110 1: 512-4096; RFC 5702 2: 1024-4096 for 10). */
export const RSA_BOUNDS: Record<number, { readonly min: number; readonly max: number }> = {
  1: { min: 512, max: 4096 },
  5: { min: 512, max: 4096 },
  7: { min: 512, max: 4096 },
  8: { min: 512, max: 4096 },
  10: { min: 1024, max: 4096 }
}

/** Fixed key sizes of the elliptic-curve algorithms (RFC 6605, RFC 8080, RFC 9563, RFC 9558). */
const FIXED_BITS: Record<number, number> = { 13: 256, 14: 384, 15: 256, 16: 456, 17: 256, 23: 256 }

/**
 * The exact public key length in octets of the elliptic-curve algorithms: ECDSA P-256 and P-384 as
 * the two coordinates (RFC 6605 4), Ed25519 and Ed448 as the point (RFC 8080 3). A key of another
 * length cannot verify anything: validators treat the zone's signatures under it as bogus.
 */
export const EC_KEY_OCTETS: Record<number, number> = { 13: 64, 14: 96, 15: 32, 16: 57 }

/**
 * Pure: the expected and actual public key lengths in octets when an ECDSA or EdDSA key has another
 * length than its algorithm's (RFC 6605 4, RFC 8080 3); undefined when it fits or the algorithm has
 * no fixed length (RSA is judged by its modulus, `rsaKeyBits`).
 */
export const ecKeyLengthMismatch = (
  algorithm: number,
  publicKey: string
): { readonly expected: number; readonly actual: number } | undefined => {
  const expected = EC_KEY_OCTETS[algorithm]
  if (expected === undefined) return undefined
  const actual = Buffer.from(publicKey, "base64").length
  return actual === expected ? undefined : { expected, actual }
}

/** The key size in bits of a DNSKEY, where the algorithm tells it; undefined otherwise. */
export const keyBits = (algorithm: number, publicKey: string): number | undefined =>
  RSA_BOUNDS[algorithm] ? rsaKeyBits(publicKey) : FIXED_BITS[algorithm]
