/**
 * DNSSEC key arithmetic, pure: key tags (RFC 4034 App. B), DS digests (RFC 4034 5.1.4, RFC 4509,
 * RFC 6605), algorithm names (IANA registry) and their standing per RFC 8624 3.1.
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"
import type { DnskeyData } from "../net/DnsWire.ts"

export const AlgorithmSecurity = Schema.Literal("modern", "acceptable", "deprecated", "insecure", "unknown")
export type AlgorithmSecurity = typeof AlgorithmSecurity.Type

/**
 * RFC 8624 3.1 (signing column): MUST NOT → insecure; NOT RECOMMENDED → deprecated;
 * MAY → acceptable; MUST / RECOMMENDED → modern.
 */
const ALGORITHMS: Record<number, { readonly name: string; readonly security: AlgorithmSecurity }> = {
  1: { name: "RSAMD5", security: "insecure" },
  3: { name: "DSA", security: "insecure" },
  5: { name: "RSASHA1", security: "deprecated" },
  6: { name: "DSA-NSEC3-SHA1", security: "insecure" },
  7: { name: "RSASHA1-NSEC3-SHA1", security: "deprecated" },
  8: { name: "RSASHA256", security: "modern" },
  10: { name: "RSASHA512", security: "acceptable" },
  12: { name: "ECC-GOST", security: "insecure" },
  13: { name: "ECDSAP256SHA256", security: "modern" },
  14: { name: "ECDSAP384SHA384", security: "acceptable" },
  15: { name: "ED25519", security: "modern" },
  16: { name: "ED448", security: "acceptable" }
}

export const algorithmName = (alg: number): string => ALGORITHMS[alg]?.name ?? `UNKNOWN-${alg}`
export const algorithmSecurity = (alg: number): AlgorithmSecurity => ALGORITHMS[alg]?.security ?? "unknown"

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

export const DIGEST_TYPES: Record<number, { readonly name: string; readonly hash: string }> = {
  1: { name: "SHA-1", hash: "sha1" },
  2: { name: "SHA-256", hash: "sha256" },
  4: { name: "SHA-384", hash: "sha384" }
}

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
  const digest = DIGEST_TYPES[digestType]
  if (!digest) return undefined
  return createHash(digest.hash)
    .update(Buffer.concat([nameWire(owner), dnskeyRdata(key)]))
    .digest("hex")
    .toUpperCase()
}

/** Flags bits (RFC 4034 2.1.1): Zone Key (bit 7 → 256) and Secure Entry Point (bit 15 → 1). */
export const keyRole = (flags: number): "KSK" | "ZSK" | "other" =>
  (flags & 0x100) === 0 ? "other" : (flags & 1) === 1 ? "KSK" : "ZSK"
