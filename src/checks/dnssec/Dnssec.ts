/**
 * DNSSEC: is the zone signed, does it validate, and how well is it set up.
 * Validation itself is the validating resolver's (its AD bit, RFC 4035 3.2.3); we explain the
 * verdict: DS to DNSKEY matching (RFC 4034 5), signature lifetimes (RFC 4034 3.1.5), algorithm
 * standing (RFC 8624) and NSEC3 parameters (RFC 9276). SERVFAIL is retried with CD (RFC 4035 3.2.2):
 * data that then arrives is bogus; no data even then means the zone is unreachable (unknown).
 */
import { Effect, Schema } from "effect"
import type { DnsAnswer, DnsError, RecordType } from "../../net/Dns.ts"
import type { DnskeyData, DsData, Nsec3ParamData, RrsigData } from "../../net/DnsWire.ts"
import {
  AlgorithmSecurity,
  algorithmName,
  algorithmSecurity,
  DIGEST_TYPES,
  dsDigest,
  keyRole,
  keyTag,
  weakest
} from "../../records/DnssecKeys.ts"
import { DateTime, Strings } from "../../records/Schemas.ts"
import { define } from "../Check.ts"
import { Facts, type FactsShape } from "../Facts.ts"
import { type CheckStatus, Status } from "../Status.ts"
import { Issue, Nsec3Param, nsec3Verdict } from "./Nsec3.ts"

/** One lookup as gathered: a settled answer (possibly only obtainable with CD: bogus), or a failure. */
export type Gathered =
  | { readonly _tag: "Answer"; readonly answer: DnsAnswer; readonly bogus: boolean }
  | { readonly _tag: "Failed"; readonly error: DnsError }

export interface DnssecFacts {
  readonly domain: string
  /** The zone apex the name belongs to (the domain itself when it is an apex). */
  readonly zone: string
  readonly dnskey: Gathered
  readonly ds: Gathered
  readonly soa: Gathered
  readonly nsec3param: Gathered
  /** Whether the resolver validates at all: AD on the root DNSKEY answer (undefined if unknown). */
  readonly resolverValidates: boolean | undefined
}

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
  /** DS: a DNSKEY of the zone hashes to this digest. DNSKEY: some DS at the parent points to it. */
  matched: Schema.Boolean,
  /** For KSKs: the SHA-256 DS record to publish at the parent (RFC 4509). */
  dsRecord: Schema.optional(Schema.String)
})
export type ChainEntry = typeof ChainEntry.Type

export const RrsigEntry = Schema.Struct({
  typeCovered: Schema.String,
  algorithm: Schema.Int,
  algorithmName: Schema.String,
  originalTTL: Schema.Int,
  keyTag: Schema.Int,
  signerName: Schema.String,
  inception: DateTime,
  expiration: DateTime,
  daysUntilExpiry: Schema.Int,
  isExpired: Schema.Boolean,
  notYetValid: Schema.Boolean
})
export type RrsigEntry = typeof RrsigEntry.Type

export const DnssecResult = Schema.Struct({
  domain: Schema.String,
  /** The zone whose keys were examined (differs from `domain` for names below an apex). */
  zone: Schema.String.annotations({ description: "the zone apex whose keys were examined" }),
  status: Status,
  signed: Schema.Boolean,
  valid: Schema.Boolean,
  /** "secure", "insecure" (unsigned or no DS), "bogus", or "unknown" (resolver unreachable). */
  state: Schema.Literal("secure", "insecure", "bogus", "unknown"),
  chain: Schema.Array(ChainEntry),
  nsec3param: Nsec3Param,
  rrsig: Schema.Struct({
    exists: Schema.Boolean,
    records: Schema.Array(RrsigEntry),
    algorithmSecurity: AlgorithmSecurity,
    issues: Schema.Array(Issue)
  }),
  errors: Strings,
  resolver: Schema.String
})
export type DnssecResult = typeof DnssecResult.Type

/**
 * A lookup that tells bogus from broken (RFC 4035 3.2.2): on SERVFAIL, ask again with CD; data then
 * means validation failed (bogus), another failure means the servers are unreachable.
 */
export const askWithCd = (
  resolver: Pick<FactsShape, "query">,
  name: string,
  type: RecordType
): Effect.Effect<Gathered> =>
  resolver.query(name, type).pipe(
    Effect.map((answer): Gathered => ({ _tag: "Answer", answer, bogus: false })),
    Effect.catchAll((error) =>
      error.reason !== "servfail"
        ? Effect.succeed<Gathered>({ _tag: "Failed", error })
        : resolver.query(name, type, { checkingDisabled: true }).pipe(
            Effect.map((answer): Gathered => ({ _tag: "Answer", answer, bogus: true })),
            // SERVFAIL even without validation: the zone's servers are the problem, not DNSSEC.
            Effect.catchAll(() => Effect.succeed<Gathered>({ _tag: "Failed", error }))
          )
    )
  )

/** The lookups behind the verdict for the scanned domain, concurrently. */
export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  // DNSSEC is per zone: for a name below the apex, the SOA (answer, or authority of a NODATA /
  // NXDOMAIN, RFC 2308 3) names the zone whose keys and DS matter.
  const first = yield* askWithCd(facts, domain, "SOA")
  const soaOwner =
    first._tag === "Answer"
      ? (
          first.answer.answers.find((r) => r.type === "SOA") ??
          first.answer.authority.find((r) => r.type === "SOA")
        )?.name
      : undefined
  const zone =
    soaOwner !== undefined && soaOwner !== "" && (domain === soaOwner || domain.endsWith(`.${soaOwner}`))
      ? soaOwner
      : domain
  const [dnskey, ds, soa, nsec3param, root] = yield* Effect.all(
    [
      askWithCd(facts, zone, "DNSKEY"),
      askWithCd(facts, zone, "DS"),
      zone === domain ? Effect.succeed(first) : askWithCd(facts, zone, "SOA"),
      askWithCd(facts, zone, "NSEC3PARAM"),
      Effect.either(facts.query(".", "DNSKEY"))
    ],
    { concurrency: "unbounded" }
  )
  const resolverValidates =
    root._tag === "Right" && root.right.outcome === "answer" ? root.right.flags.ad : undefined
  return { domain, zone, dnskey, ds, soa, nsec3param, resolverValidates } satisfies DnssecFacts
}).pipe(Effect.withSpan("Dnssec.gather"))

const records = <T>(g: Gathered, type: string): Array<{ readonly name: string; readonly data: T }> =>
  g._tag === "Answer"
    ? g.answer.answers.filter((r) => r.type === type).map((r) => ({ name: r.name, data: r.data as T }))
    : []

const DAY = 86_400

/** Days until a signature expires (negative once expired), rounded down. */
export const daysUntil = (expiration: number, nowSeconds: number): number =>
  Math.floor((expiration - nowSeconds) / DAY)

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** Pure and total: the verdict from the gathered lookups at time `now`. */
export const analyse = (facts: DnssecFacts, now: Date): DnssecResult => {
  const nowSeconds = Math.floor(now.getTime() / 1000)
  const domain = facts.domain
  const zone = facts.zone
  const errors: Array<string> = []
  const resolver =
    facts.dnskey._tag === "Answer"
      ? facts.dnskey.answer.resolver
      : facts.ds._tag === "Answer"
        ? facts.ds.answer.resolver
        : ""

  const keys = records<DnskeyData>(facts.dnskey, "DNSKEY")
  const dses = records<DsData>(facts.ds, "DS")
  const signed = keys.length > 0
  const bogus = [facts.dnskey, facts.ds, facts.soa, facts.nsec3param].some(
    (g) => g._tag === "Answer" && g.bogus
  )
  const unreachable = facts.dnskey._tag === "Failed"

  // DS ↔ DNSKEY matching (RFC 4035 5.2): a DS authenticates a key when tag, algorithm and digest agree.
  const keyInfo = keys.map((k) => ({ ...k, tag: keyTag(k.data) }))
  const dsEntries: Array<ChainEntry> = dses.map(({ name, data }) => {
    const computed = keyInfo
      .filter((k) => k.tag === data.keyTag && k.data.algorithm === data.algorithm)
      .some((k) => dsDigest(zone, k.data, data.digestType) === data.digest.toUpperCase())
    return {
      type: "DS",
      domain: name,
      keyTag: data.keyTag,
      algorithm: data.algorithm,
      algorithmName: algorithmName(data.algorithm),
      algorithmSecurity: algorithmSecurity(data.algorithm),
      digestType: data.digestType,
      digestTypeName: DIGEST_TYPES[data.digestType]?.name ?? `unknown-${data.digestType}`,
      digest: data.digest,
      flags: 0,
      role: "DS",
      protocol: 0,
      publicKey: "",
      matched: computed
    }
  })
  const keyEntries: Array<ChainEntry> = keyInfo.map((k) => {
    const role = keyRole(k.data.flags)
    const matched = dses.some(
      (d) =>
        d.data.keyTag === k.tag &&
        d.data.algorithm === k.data.algorithm &&
        dsDigest(zone, k.data, d.data.digestType) === d.data.digest.toUpperCase()
    )
    const sha256 = dsDigest(zone, k.data, 2)
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
      matched,
      ...(role === "KSK" && sha256 ? { dsRecord: `${k.tag} ${k.data.algorithm} 2 ${sha256}` } : {})
    }
  })

  if (signed) {
    for (const d of dsEntries.filter((d) => !d.matched))
      errors.push(
        `DS ${d.keyTag} (algorithm ${d.algorithm}, digest ${d.digestTypeName}) at the parent matches no DNSKEY of ${zone}`
      )
    if (dses.length === 0 && facts.ds._tag === "Answer")
      errors.push(`${zone} has DNSKEYs but the parent publishes no DS: the chain of trust stops above it`)
    else if (dses.length > 0 && dsEntries.every((d) => !d.matched))
      errors.push("no DS record matches a DNSKEY: the chain of trust is broken")
  } else if (dses.length > 0 && facts.dnskey._tag === "Answer") {
    errors.push(
      `the parent publishes DS records for ${zone} but the zone serves no DNSKEY: the delegation is bogus`
    )
  }

  // Signatures over the apex sets we asked for (the DO bit brings them along).
  // Only the zone's own signatures: the DS RRSIG is the parent's, signed with the parent's keys.
  const sigs = [facts.dnskey, facts.soa, facts.nsec3param]
    .flatMap((g) => records<RrsigData>(g, "RRSIG"))
    .filter((s) => s.data.signersName === zone)
  const seen = new Set<string>()
  const rrsigRecords: Array<RrsigEntry> = []
  for (const { data } of sigs) {
    const id = `${data.typeCovered}/${data.keyTag}/${data.signersName}/${data.expiration}`
    if (seen.has(id)) continue
    seen.add(id)
    rrsigRecords.push({
      typeCovered: data.typeCovered,
      algorithm: data.algorithm,
      algorithmName: algorithmName(data.algorithm),
      originalTTL: data.originalTTL,
      keyTag: data.keyTag,
      signerName: data.signersName,
      inception: iso(data.inception),
      expiration: iso(data.expiration),
      daysUntilExpiry: daysUntil(data.expiration, nowSeconds),
      isExpired: data.expiration < nowSeconds,
      notYetValid: data.inception > nowSeconds
    })
  }
  const rrsigIssues: Array<Issue> = []
  for (const r of rrsigRecords) {
    if (r.isExpired) {
      const msg = `RRSIG over ${r.typeCovered} (key ${r.keyTag}) expired on ${r.expiration.slice(0, 10)}`
      rrsigIssues.push({ severity: "error", code: "rrsig-expired", message: msg })
      errors.push(msg)
    } else if (r.notYetValid) {
      const msg = `RRSIG over ${r.typeCovered} (key ${r.keyTag}) is not valid before ${r.inception}`
      rrsigIssues.push({ severity: "error", code: "rrsig-not-yet-valid", message: msg })
      errors.push(msg)
    } else if (r.daysUntilExpiry < 7)
      rrsigIssues.push({
        severity: "warning",
        code: "rrsig-expiring",
        message: `RRSIG over ${r.typeCovered} expires in ${r.daysUntilExpiry} day(s): check the signer is re-signing`
      })
  }
  const algorithms = [
    ...new Set([...keyEntries.map((k) => k.algorithm), ...rrsigRecords.map((r) => r.algorithm)])
  ]
  const security = weakest(algorithms.map(algorithmSecurity))
  for (const alg of algorithms) {
    const standing = algorithmSecurity(alg)
    if (standing === "insecure" || standing === "deprecated")
      rrsigIssues.push({
        severity: standing === "insecure" ? "error" : "warning",
        code: `algorithm-${standing}`,
        message: `algorithm ${alg} (${algorithmName(alg)}) is ${standing} per RFC 8624; roll to 13 (ECDSAP256SHA256) or 15 (ED25519)`
      })
  }

  const p = records<Nsec3ParamData | string>(facts.nsec3param, "NSEC3PARAM")
    .map((r) => r.data)
    .find((d): d is Nsec3ParamData => typeof d === "object")
  const nsec3param = nsec3Verdict(signed ? p : undefined)

  const adValid =
    facts.dnskey._tag === "Answer" && !facts.dnskey.bogus && facts.dnskey.answer.flags.ad && signed
  if (bogus)
    errors.unshift(
      "the validating resolver answers SERVFAIL and serves the data only with checking disabled: the zone is bogus"
    )
  if (signed && !adValid && !bogus && facts.resolverValidates === false)
    errors.push(
      "the resolver does not validate DNSSEC (no AD even for the root), so validity cannot be confirmed"
    )
  if (unreachable && facts.dnskey._tag === "Failed")
    errors.push(`DNSKEY lookup failed (${facts.dnskey.error.reason}): ${facts.dnskey.error.message}`)

  const state: DnssecResult["state"] = unreachable
    ? "unknown"
    : bogus
      ? "bogus"
      : adValid
        ? "secure"
        : "insecure"
  const hasWarnings =
    rrsigIssues.some((i) => i.severity !== "info") || nsec3param.issues.some((i) => i.severity === "warning")
  const status: CheckStatus = unreachable
    ? "unknown"
    : !signed
      ? errors.length > 0
        ? "fail"
        : "missing"
      : !adValid || errors.length > 0 || security === "insecure"
        ? "fail"
        : hasWarnings
          ? "warning"
          : "pass"

  return {
    domain,
    zone,
    status,
    signed,
    valid: adValid,
    state,
    chain: [...keyEntries, ...dsEntries],
    nsec3param,
    rrsig: {
      exists: rrsigRecords.length > 0,
      records: rrsigRecords,
      algorithmSecurity: signed ? security : "unknown",
      issues: rrsigIssues
    },
    errors,
    resolver
  }
}

export const Dnssec = define({
  id: "dnssec",
  title: "DNSSEC",
  category: "dnssec",
  result: DnssecResult,
  gather,
  analyse
})
