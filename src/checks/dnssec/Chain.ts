/**
 * The chain entries of the DNSSEC verdict: each DNSKEY and DS, how they match (RFC 4035 5.2), what
 * the registries say of their algorithm and digest type (`records/DnssecRegistry.ts`: RFC 9904,
 * RFC 9905), and the size of every key (RSA: RFC 3110, bounds RFC 3110 1 / RFC 5702 2, 2048 bits
 * per NIST SP 800-57 Part 1 5.6; ECDSA and EdDSA: the exact length, RFC 6605 4 / RFC 8080 3). A DS whose digest we cannot compute is "not verified by us",
 * never "broken": the validating resolver's AD bit stands.
 */
import { Schema } from "effect"
import type { DnskeyData, DsData } from "../../records/DnsRdata.ts"
import {
  AlgorithmSecurity,
  algorithmName,
  algorithmSecurity,
  digestHash,
  digestName,
  dsDigest,
  ecKeyLengthMismatch,
  keyBits,
  keyRole,
  keyTag,
  RSA_BOUNDS
} from "../../records/DnssecKeys.ts"
import { digestRow, unusableReason } from "../../records/DnssecRegistry.ts"
import type { Issue } from "./Nsec3.ts"

export const ChainEntry = Schema.Struct({
  type: Schema.Literal("DNSKEY", "DS"),
  domain: Schema.String,
  keyTag: Schema.Int,
  algorithm: Schema.Int,
  algorithmName: Schema.String,
  algorithmSecurity: AlgorithmSecurity,
  /** 0 for DNSKEY entries; 1, 2, 4 for DS. */
  digestType: Schema.Int,
  digestTypeName: Schema.String,
  /** DS only: the registry's verdict on the digest type ("Use for DNSSEC Delegation", RFC 9904 Table 3). */
  digestSecurity: Schema.optional(AlgorithmSecurity),
  /** DS digest (hex); "" for DNSKEY entries. */
  digest: Schema.String,
  /** DNSKEY flags (256 ZSK, 257 KSK); 0 for DS entries. The contract also allows the decoded form. */
  flags: Schema.Union(
    Schema.Int,
    Schema.Struct({ value: Schema.Int, zoneKey: Schema.Boolean, secureEntryPoint: Schema.Boolean })
  ),
  role: Schema.Literal("KSK", "ZSK", "other", "DS"),
  /** 3 for DNSKEY entries; 0 for DS entries. */
  protocol: Schema.Int,
  /** Base64 public key; "" for DS entries. */
  publicKey: Schema.String,
  /** DNSKEY: the key size in bits (RSA: the modulus), where the algorithm tells it. */
  keySize: Schema.optional(Schema.Int),
  /** DS: a DNSKEY of the zone hashes to this digest. DNSKEY: some DS at the parent hashes to it. */
  matched: Schema.Boolean,
  /**
   * How the DS-DNSKEY link was checked: `match`; `mismatch` (no key of that tag and algorithm
   * hashes to it / no DS points at this key); `not-computed` (the DS names the key by tag and
   * algorithm but uses a digest type we cannot compute: not verified by us).
   */
  dsCheck: Schema.Literal("match", "mismatch", "not-computed"),
  /** For KSKs: the SHA-256 DS record to publish at the parent (RFC 4509). */
  dsRecord: Schema.optional(Schema.String)
})
export type ChainEntry = typeof ChainEntry.Type

interface Owned<T> {
  readonly name: string
  readonly data: T
}

export interface Chain {
  readonly entries: Array<ChainEntry>
  /** Findings on the DS set and the keys. */
  readonly issues: Array<Issue>
  /** The error-severity findings as the sentences of the result's `errors`. */
  readonly errors: Array<string>
}

const dsLabel = (d: Pick<DsData, "keyTag" | "algorithm" | "digestType">) =>
  `DS ${d.keyTag} (algorithm ${d.algorithm}, digest ${digestName(d.digestType)})`

/** Pure: the chain entries and their findings for `zone`'s keys and the parent's DS set. */
export const chainOf = (
  zone: string,
  keys: ReadonlyArray<Owned<DnskeyData>>,
  dses: ReadonlyArray<Owned<DsData>>,
  dsAnswered: boolean
): Chain => {
  const issues: Array<Issue> = []
  const errors: Array<string> = []
  const error = (code: string, message: string) => {
    issues.push({ severity: "error", code, message })
    errors.push(message)
  }
  const keyInfo = keys.map((k) => ({ ...k, tag: keyTag(k.data) }))
  const checkOf = (d: DsData): ChainEntry["dsCheck"] => {
    const candidates = keyInfo.filter((k) => k.tag === d.keyTag && k.data.algorithm === d.algorithm)
    if (candidates.length === 0) return "mismatch"
    if (!digestHash(d.digestType)) return "not-computed"
    return candidates.some((k) => dsDigest(zone, k.data, d.digestType) === d.digest.toUpperCase())
      ? "match"
      : "mismatch"
  }
  const dsEntries: Array<ChainEntry> = dses.map(({ name, data }) => {
    const check = checkOf(data)
    return {
      type: "DS",
      domain: name,
      keyTag: data.keyTag,
      algorithm: data.algorithm,
      algorithmName: algorithmName(data.algorithm),
      algorithmSecurity: algorithmSecurity(data.algorithm),
      digestType: data.digestType,
      digestTypeName: digestName(data.digestType),
      digestSecurity: digestRow(data.digestType).verdict,
      digest: data.digest,
      flags: 0,
      role: "DS",
      protocol: 0,
      publicKey: "",
      matched: check === "match",
      dsCheck: check
    }
  })
  const keyEntries: Array<ChainEntry> = keyInfo.map((k) => {
    const role = keyRole(k.data.flags)
    const pointing = dsEntries.filter((d) => d.keyTag === k.tag && d.algorithm === k.data.algorithm)
    const matched = pointing.some(
      (d) => d.dsCheck === "match" && dsDigest(zone, k.data, d.digestType) === d.digest.toUpperCase()
    )
    const check = matched
      ? "match"
      : pointing.some((d) => d.dsCheck === "not-computed")
        ? "not-computed"
        : "mismatch"
    const sha256 = dsDigest(zone, k.data, 2)
    const bits = keyBits(k.data.algorithm, k.data.publicKey)
    return {
      type: "DNSKEY",
      domain: k.name,
      keyTag: k.tag,
      algorithm: k.data.algorithm,
      algorithmName: algorithmName(k.data.algorithm),
      algorithmSecurity: algorithmSecurity(k.data.algorithm),
      digestType: 0,
      digestTypeName: "",
      digest: "",
      flags: k.data.flags,
      role,
      protocol: k.data.protocol,
      publicKey: k.data.publicKey,
      ...(bits !== undefined ? { keySize: bits } : {}),
      matched,
      dsCheck: check,
      ...(role === "KSK" && sha256 ? { dsRecord: `${k.tag} ${k.data.algorithm} 2 ${sha256}` } : {})
    }
  })

  // Key sizes (Zonemaster DNSSEC14 reads the same bounds): outside the algorithm's range is an
  // error, under 2048 bits a warning (NIST SP 800-57 Part 1: 1024-bit RSA gives 80-bit security).
  for (const k of keyEntries) {
    const what = `DNSKEY ${k.keyTag} (${k.role}, ${k.algorithmName})`
    const ec = ecKeyLengthMismatch(k.algorithm, k.publicKey)
    if (ec)
      error(
        "dnskey-ec-size",
        `${what} has a ${ec.actual}-octet public key; the algorithm's keys are exactly ${ec.expected} octets (RFC 6605 4, RFC 8080 3), so nothing verifies under it`
      )
    const bounds = RSA_BOUNDS[k.algorithm]
    if (!bounds) continue
    if (k.keySize === undefined)
      error("dnskey-rsa-malformed", `${what} is not a well-formed RSA public key (RFC 3110 2)`)
    else if (k.keySize < bounds.min || k.keySize > bounds.max)
      error(
        "dnskey-rsa-size",
        `${what} is a ${k.keySize}-bit RSA key, outside the ${bounds.min}-${bounds.max} bits its algorithm allows`
      )
    else if (k.keySize < 2048)
      issues.push({
        severity: "warning",
        code: "dnskey-rsa-short",
        message: `${what} is a ${k.keySize}-bit RSA key: below the 2048 bits NIST SP 800-57 Part 1 recommends; roll to a 2048-bit key or to algorithm 13`
      })
  }

  if (keys.length === 0) {
    if (dses.length > 0 && dsAnswered)
      error(
        "ds-without-dnskey",
        `the parent publishes DS records for ${zone} but the zone serves no DNSKEY: the delegation is bogus`
      )
    return { entries: [...keyEntries, ...dsEntries], issues, errors }
  }

  // Digest types (RFC 9904 Table 3 "Use for DNSSEC Delegation"): a DS validators can use beside a
  // weak one makes the weak one harmless (RFC 4509 3: validators ignore SHA-1 beside SHA-256).
  const usable = (d: ChainEntry) => {
    const r = digestRow(d.digestType)
    return r.kind === "assigned" && r.validation !== "MUST NOT"
  }
  const strong = (d: ChainEntry) => d.digestSecurity === "modern" || d.digestSecurity === "acceptable"
  for (const d of dsEntries) {
    const r = digestRow(d.digestType)
    const siblings = dsEntries.filter((o) => o !== d && o.keyTag === d.keyTag && o.algorithm === d.algorithm)
    const reason = unusableReason(r) ?? (r.validation === "MUST NOT" ? "is not for DS records" : undefined)
    if (reason) {
      const msg = `DS ${d.keyTag} uses digest type ${d.digestType} (${r.name}), which ${reason}: validators ignore it`
      if (siblings.some(usable))
        issues.push({ severity: "warning", code: "ds-digest-unusable", message: msg })
      else error("ds-digest-unusable", msg)
    } else if (r.use === "MUST NOT") {
      const msg = `DS ${d.keyTag} uses ${r.name}, which MUST NOT be used for new DS records (RFC 9904 Table 3, RFC 8624 3.3)`
      if (siblings.some(strong))
        issues.push({
          severity: "warning",
          code: "ds-digest-deprecated",
          message: `${msg}; validators ignore it beside the stronger DS (RFC 4509 3): remove it`
        })
      else error("ds-digest-deprecated", `${msg}; the chain of trust rests on it: publish a SHA-256 DS`)
    }
    if (d.dsCheck === "not-computed")
      issues.push({
        severity: "info",
        code: "ds-not-verified",
        message: `${dsLabel(d)} names DNSKEY ${d.keyTag}, but we cannot compute ${r.name} digests: not verified by us (the resolver's AD bit stands)`
      })
  }
  for (const d of dsEntries.filter((d) => d.dsCheck === "mismatch"))
    errors.push(`${dsLabel(d)} at the parent matches no DNSKEY of ${zone}`)
  if (dses.length === 0 && dsAnswered)
    errors.push(`${zone} has DNSKEYs but the parent publishes no DS: the chain of trust stops above it`)
  else if (dses.length > 0 && dsEntries.every((d) => d.dsCheck === "mismatch"))
    errors.push("no DS record matches a DNSKEY: the chain of trust is broken")
  return { entries: [...keyEntries, ...dsEntries], issues, errors }
}
