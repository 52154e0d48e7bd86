/** The rules of the DNSSEC check (docs/scoring.md): signed, validating, algorithm, NSEC3, signatures. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { DnssecResult } from "./DnssecResult.ts"

export const DNSSEC_SPECS = {
  signed: spec({
    id: "dnssec.signed",
    title: "DNSSEC signed",
    titleNl: "DNSSEC-ondertekend",
    category: "dnssec",
    maxPoints: 5,
    level: "recommended",
    rule: "The zone has DNSKEY records and a DS in its parent; not applicable under an unsigned parent (TLD)",
    rank: 10
  }),
  valid: spec({
    id: "dnssec.valid",
    title: "DNSSEC validates",
    titleNl: "DNSSEC valideert",
    category: "dnssec",
    maxPoints: 5,
    level: "required",
    rule: "Validating resolvers reach `secure`; bogus is fatal (grade F); an unsigned zone, a signed one without a DS at the parent and one validators do not vouch for fail, each with its own issue; not applicable under an unsigned parent (TLD)",
    rank: 20
  }),
  algorithm: spec({
    id: "dnssec.algorithm",
    title: "DNSSEC algorithm",
    titleNl: "DNSSEC-algoritme",
    category: "dnssec",
    maxPoints: 3,
    level: "recommended",
    rule: 'An algorithm the IANA registry\'s "Use for DNSSEC Signing" column RECOMMENDS (8, 13, 15: RFC 9904, RFC 9905), every RSA key at least 2048 bits and a DS digest other than SHA-1 (2 of 3 points below; MAY, such as 14 and 16: 2 of 3); not applicable when unsigned',
    rank: 30
  }),
  nsec3: spec({
    id: "dnssec.nsec3",
    title: "NSEC3 parameters",
    titleNl: "NSEC3-parameters",
    category: "dnssec",
    maxPoints: 1,
    level: "recommended",
    rule: "NSEC, or NSEC3 with 0 iterations and no salt (RFC 9276); not applicable when unsigned",
    rank: 40
  }),
  rrsig: spec({
    id: "dnssec.rrsig",
    title: "Signature validity",
    titleNl: "Geldigheid van de handtekeningen",
    category: "dnssec",
    maxPoints: 1,
    level: "recommended",
    rule: "No RRSIG expired or expiring within 7 days; not applicable when unsigned",
    rank: 50
  }),
  soaExpire: spec({
    id: "dnssec.rrsig-soa-expire",
    title: "Signatures outlive the SOA expire",
    titleNl: "Handtekeningen langer geldig dan de SOA-expire",
    category: "dnssec",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored: every SOA and DNSKEY signature stays valid longer than the SOA expire time, so a secondary cut off from its primary never serves expired signatures (RFC 6781 4.4.2); not applicable when unsigned",
    rank: 60
  })
} as const

/** Under an unsigned parent (an unsigned TLD) a zone cannot have a chain of trust: nothing to judge. */
const cannotSign = (r: { readonly signed: boolean; readonly parentSigned: boolean | null }) =>
  !r.signed && r.parentSigned === false

/**
 * Why a zone the resolver calls insecure is so (RFC 4035 4.3): unsigned is a choice, the rest a chain
 * of trust that does not reach the zone. A result stored before `trust` existed reads as unsigned
 * when it has no keys, as unvalidated when it has.
 */
const insecure = (r: DnssecResult): Verdict => {
  switch (r.trust ?? (r.signed ? "unvalidated" : "unsigned")) {
    case "no-ds":
      return fail(
        "signed, but the parent publishes no DS: the chain of trust stops above the zone",
        "dnssec_no_ds"
      )
    case "broken":
      return fail(
        "the DS at the parent matches no key of the zone: the chain of trust is broken",
        "dnssec_insecure"
      )
    case "unvalidated":
      return fail(
        "signed with a DS, yet validating resolvers do not vouch for it (insecure)",
        "dnssec_insecure"
      )
    case "unknown":
      return unknown("the resolver does not validate, so the chain of trust cannot be judged")
    default:
      return fail("not signed, so nothing validates", "dnssec_unsigned")
  }
}

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly dnssec: DnssecResult }

export const dnssecRecords = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const d = scan.checks.dnssec
  const parentUnsigned = notApplicable("the parent zone is not signed, so DNSSEC cannot be deployed under it")
  const unsignedOr = (f: (r: NonNullable<typeof d.result>) => Verdict) =>
    judge(d, (r) =>
      r.state === "unknown"
        ? unknown("the resolver could not be asked")
        : !r.signed
          ? notApplicable("the zone is not signed")
          : f(r)
    )
  return [
    scored(
      DNSSEC_SPECS.signed,
      judge(d, (r) =>
        r.state === "unknown"
          ? unknown("the resolver could not be asked")
          : r.signed
            ? pass(`zone ${r.zone} is signed`)
            : cannotSign(r)
              ? parentUnsigned
              : fail("the zone is not signed", "dnssec_unsigned")
      )
    ),
    scored(
      DNSSEC_SPECS.valid,
      judge(d, (r) =>
        r.state === "secure"
          ? pass("validating resolvers answer secure")
          : r.state === "bogus"
            ? { status: "fail", detail: "validation fails (bogus)", issues: ["dnssec_bogus"], fatal: true }
            : r.state === "insecure"
              ? cannotSign(r)
                ? parentUnsigned
                : insecure(r)
              : unknown("the resolver could not be asked")
      )
    ),
    scored(
      DNSSEC_SPECS.algorithm,
      unsignedOr((r) => {
        const security = r.rrsig.algorithmSecurity
        // The chain rests on a digest validators will drop (SHA-1 alone: RFC 9904 Table 3 MUST NOT).
        const weakDigest = r.issues.some(
          (i) =>
            i.severity === "error" && (i.code === "ds-digest-deprecated" || i.code === "ds-digest-unusable")
        )
        if (security === "unknown") return unknown("the algorithm could not be read")
        if (security === "deprecated" || security === "insecure")
          return fail(`${security} algorithm (IANA registry, RFC 9904, RFC 9905)`, "dnssec_weak_algorithm")
        if (weakDigest)
          return partial(
            security === "modern" ? 2 : 1,
            "the parent's DS uses only a digest type that MUST NOT be used (RFC 9904 Table 3)",
            "dnssec_weak_digest",
            ...(security === "acceptable" ? ["dnssec_weak_algorithm"] : [])
          )
        if (security === "acceptable")
          return partial(
            2,
            "an algorithm the registry allows (MAY) but does not recommend",
            "dnssec_weak_algorithm"
          )
        return r.issues.some((i) => i.code === "dnskey-rsa-short")
          ? partial(2, "an RSA key below 2048 bits (NIST SP 800-57)", "dnssec_rsa_key_short")
          : pass("an algorithm the registry recommends for signing")
      })
    ),
    scored(
      DNSSEC_SPECS.nsec3,
      unsignedOr((r) =>
        !r.nsec3param.exists || r.nsec3param.rfc9276Compliant
          ? pass(r.nsec3param.exists ? "NSEC3 with 0 iterations and no salt" : "NSEC")
          : fail(
              `NSEC3 with ${r.nsec3param.iterations} iterations, salt '${r.nsec3param.salt}'`,
              "dnssec_nsec3_iterations"
            )
      )
    ),
    scored(
      DNSSEC_SPECS.rrsig,
      unsignedOr((r) => {
        if (!r.rrsig.exists) return unknown("no signatures could be read")
        const soon = r.rrsig.records.filter((s) => s.isExpired || s.daysUntilExpiry < 7)
        return soon.length === 0
          ? pass("every signature valid for 7 days or more")
          : fail(`${soon.length} signature(s) expired or expiring within 7 days`, "dnssec_rrsig_expiring")
      })
    ),
    scored(
      DNSSEC_SPECS.soaExpire,
      unsignedOr((r) => {
        const early = r.rrsig.issues.filter((i) => i.code === "rrsig-before-soa-expire")
        // Shown, never scored: nothing to compare is not applicable rather than unknown, which would
        // hold back an A+ for want of a record worth no points (results stored before soaExpire too).
        return !r.rrsig.exists || r.rrsig.soaExpire === undefined
          ? notApplicable("no SOA expire or no signatures to compare")
          : early.length === 0
            ? pass("every SOA and DNSKEY signature outlives the SOA expire")
            : fail(
                `${early.length} SOA or DNSKEY signature(s) expire within the SOA expire of ${Math.round(r.rrsig.soaExpire / 86_400)} day(s)`,
                "dnssec_rrsig_soa_expire"
              )
      })
    )
  ]
}

export const rules = rulesOver<Reads>(Object.values(DNSSEC_SPECS), dnssecRecords)
