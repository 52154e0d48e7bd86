/**
 * DNSSEC: is the zone signed, does it validate, and how well is it set up.
 * Validation itself is the validating resolver's (its AD bit, RFC 4035 3.2.3); we explain the
 * verdict: DS to DNSKEY matching (RFC 4034 5), signature lifetimes (RFC 4034 3.1.5), algorithm
 * standing (the IANA registries, RFC 9904 and RFC 9905) and NSEC3 parameters (RFC 9276). SERVFAIL is retried with CD (RFC 4035 3.2.2):
 * data that then arrives is bogus; no data even then means the zone is unreachable (unknown).
 */
import { Effect } from "effect"
import type { DnsAnswer, DnsError, RecordType } from "../../net/DnsTypes.ts"
import type { DnskeyData, DsData, Nsec3ParamData, RrsigData, SoaData } from "../../records/DnsRdata.ts"
import { algorithmName, algorithmSecurity, weakest } from "../../records/DnssecKeys.ts"
import { algorithmRow, unusableReason } from "../../records/DnssecRegistry.ts"
import { define, traced } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { chainOf } from "./Chain.ts"
import { trustOf } from "./Trust.ts"
import { beforeSoaExpire, type SignatureSpan } from "./SoaExpire.ts"
import { Issue, nsec3Verdict, optOutOf } from "./Nsec3.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { DnssecResult, RrsigEntry } from "./DnssecResult.ts"

export * from "./DnssecResult.ts"

export { ChainEntry } from "./Chain.ts"

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
  /** A name that does not exist in the zone, asked when it uses NSEC3: its denial's NSEC3 records. */
  readonly denial?: Gathered
  /** Whether the resolver validates at all: AD on the root DNSKEY answer (undefined if unknown). */
  readonly resolverValidates: boolean | undefined
}

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
  // Asked together, read in turn in this fiber (a fiber each would only wait: docs/bench.md); a
  // SERVFAIL's second question, with CD, follows its first.
  yield* facts.prefetch([
    { name: zone, type: "DNSKEY" },
    { name: zone, type: "DS" },
    ...(zone === domain ? [] : [{ name: zone, type: "SOA" as const }]),
    { name: zone, type: "NSEC3PARAM" },
    { name: ".", type: "DNSKEY" }
  ])
  const dnskey = yield* askWithCd(facts, zone, "DNSKEY")
  const ds = yield* askWithCd(facts, zone, "DS")
  const soa = zone === domain ? first : yield* askWithCd(facts, zone, "SOA")
  const nsec3param = yield* askWithCd(facts, zone, "NSEC3PARAM")
  const root = yield* Effect.either(facts.query(".", "DNSKEY"))
  const resolverValidates =
    root._tag === "Right" && root.right.outcome === "answer" ? root.right.flags.ad : undefined
  // Opt-out is a flag of NSEC3 records (RFC 5155 3.1.2.1): a denial of a name that does not exist
  // carries them in its authority section (the DO bit brings them).
  const usesNsec3 =
    nsec3param._tag === "Answer" && nsec3param.answer.answers.some((r) => r.type === "NSEC3PARAM")
  const denial = usesNsec3 ? yield* askWithCd(facts, `_nsec3-probe.${zone}`, "TXT") : undefined
  return {
    domain,
    zone,
    dnskey,
    ds,
    soa,
    nsec3param,
    ...(denial ? { denial } : {}),
    resolverValidates
  } satisfies DnssecFacts
}).pipe(traced("Dnssec.gather", {}))

const records = <T>(g: Gathered, type: string): Array<{ readonly name: string; readonly data: T }> =>
  g._tag === "Answer"
    ? g.answer.answers.filter((r) => r.type === type).map((r) => ({ name: r.name, data: r.data as T }))
    : []

const DAY = 86_400

const sameName = (a: string, b: string) =>
  a.replace(/\.$/, "").toLowerCase() === b.replace(/\.$/, "").toLowerCase()

/** Days until a signature expires (negative once expired), rounded down. */
export const daysUntil = (expiration: number, nowSeconds: number): number =>
  Math.floor((expiration - nowSeconds) / DAY)

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** The DS answer came signed (AD, or RRSIGs of a zone above `zone`), or validation failed on it. */
const parentSigned = (ds: Gathered, zone: string): boolean | null => {
  if (ds._tag === "Failed") return null
  const sigs = [...ds.answer.answers, ...ds.answer.authority].filter((r) => r.type === "RRSIG")
  return (
    ds.bogus ||
    ds.answer.flags.ad ||
    sigs.some((r) => (r.data as RrsigData).signersName !== zone || zone === "")
  )
}

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

  // DS <-> DNSKEY matching (RFC 4035 5.2), digest types and key sizes: Chain.ts.
  const chain = chainOf(zone, keys, dses, facts.ds._tag === "Answer")
  const keyEntries = chain.entries.filter((e) => e.type === "DNSKEY")
  errors.push(...(facts.dnskey._tag === "Answer" || signed ? chain.errors : []))

  // Signatures over the apex sets we asked for (the DO bit brings them along).
  // Only the zone's own signatures: the DS RRSIG is the parent's, signed with the parent's keys.
  const sigs = [facts.dnskey, facts.soa, facts.nsec3param]
    .flatMap((g) => records<RrsigData>(g, "RRSIG"))
    .filter((s) => s.data.signersName === zone)
  const seen = new Set<string>()
  const rrsigRecords: Array<RrsigEntry> = []
  const spans: Array<SignatureSpan> = []
  for (const { data } of sigs) {
    const id = `${data.typeCovered}/${data.keyTag}/${data.signersName}/${data.expiration}`
    if (seen.has(id)) continue
    seen.add(id)
    spans.push(data)
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
  // The zone's own SOA (not a parent's from a denial's authority section).
  const soaExpire = records<SoaData | string>(facts.soa, "SOA")
    .filter((r) => sameName(r.name, zone))
    .map((r) => r.data)
    .find((d): d is SoaData => typeof d === "object")?.expire
  rrsigIssues.push(...beforeSoaExpire(spans, soaExpire, nowSeconds))
  const algorithms = [
    ...new Set([...keyEntries.map((k) => k.algorithm), ...rrsigRecords.map((r) => r.algorithm)])
  ]
  const security = weakest(algorithms.map(algorithmSecurity))
  // Per RFC 9904 Table 2 "Use for DNSSEC Signing" (and RFC 9905 for the SHA-1 algorithms).
  const roll = "roll to 13 (ECDSAP256SHA256) or 15 (ED25519)"
  for (const alg of algorithms) {
    const r = algorithmRow(alg)
    const label = `algorithm ${alg} (${r.name})`
    const reason = unusableReason(r)
    const push = (severity: Issue["severity"], code: string, message: string) => {
      rrsigIssues.push({ severity, code, message })
      if (severity === "error") errors.push(message)
    }
    if (reason)
      push(
        "error",
        `algorithm-${r.kind}`,
        `${label} ${reason}: validators treat what it signs as unsigned (RFC 4035 5.2); ${roll}`
      )
    else if (r.verdict === "insecure")
      push("error", "algorithm-insecure", `${label} MUST NOT be used for signing (${r.source}); ${roll}`)
    else if (r.verdict === "deprecated")
      push(
        "warning",
        "algorithm-deprecated",
        `${label} is NOT RECOMMENDED for signing (${r.source}); ${roll}`
      )
    else if (r.validation === "MAY")
      push(
        "info",
        "algorithm-validation-optional",
        `${label} may be used for signing, but validators need not support it (${r.source}): to those that do not, the zone is unsigned`
      )
  }

  const p = records<Nsec3ParamData | string>(facts.nsec3param, "NSEC3PARAM")
    .map((r) => r.data)
    .find((d): d is Nsec3ParamData => typeof d === "object")
  const optOut = facts.denial?._tag === "Answer" ? optOutOf(facts.denial.answer.authority) : null
  const nsec3param = nsec3Verdict(signed ? p : undefined, optOut)

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
  // Signed, not bogus, and still no AD from a validating resolver: say so, even when nothing above
  // explains it (an algorithm or digest validators do not support makes the zone insecure, RFC 4035 5.2).
  if (signed && !adValid && !bogus && facts.resolverValidates !== false)
    errors.push(
      `the validating resolver does not vouch for ${zone} (no AD bit): validators treat it as unsigned`
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
  const allIssues = [...chain.issues, ...rrsigIssues, ...nsec3param.issues]
  const hasWarnings = allIssues.some((i) => i.severity === "warning")
  const status: CheckStatus = unreachable
    ? "unknown"
    : !signed
      ? errors.length > 0
        ? "fail"
        : "missing"
      : !adValid || errors.length > 0 || allIssues.some((i) => i.severity === "error")
        ? "fail"
        : hasWarnings
          ? "warning"
          : "pass"

  const trust = trustOf({
    unreachable,
    bogus,
    validated: adValid,
    resolverValidates: facts.resolverValidates,
    keys: keys.length,
    dsAnswered: facts.ds._tag === "Answer",
    ds: chain.entries.filter((e) => e.type === "DS")
  })

  return {
    domain,
    zone,
    status,
    signed,
    valid: adValid,
    state,
    trust,
    parentSigned: parentSigned(facts.ds, zone),
    chain: chain.entries,
    issues: chain.issues,
    nsec3param,
    rrsig: {
      exists: rrsigRecords.length > 0,
      records: rrsigRecords,
      algorithmSecurity: signed ? security : "unknown",
      ...(soaExpire !== undefined ? { soaExpire } : {}),
      issues: rrsigIssues
    },
    errors,
    resolver
  }
}

export const Dnssec = define(about, { gather, analyse, exampleGathered })
