/** Rules of the `dns`, `dnssec` and `ipv6` categories (docs/scoring.md). */
import type { LookupResult } from "../checks/dns/Lookup.ts"
import type { SmtpTlsResult } from "../checks/smtp-tls/SmtpTls.ts"
import type { ScanResult } from "../checks/ScanResult.ts"
import {
  fail,
  judge,
  notApplicable,
  partial,
  pass,
  type Scored,
  scored,
  type Spec,
  unknown,
  type Verdict
} from "./Rules.ts"

const spec = (s: Spec): Spec => s

export const DNS_SPECS = {
  ns: spec({
    id: "dns.ns.count",
    title: "Name servers",
    category: "dns",
    maxPoints: 3,
    level: "required",
    rule: "At least two NS records (RFC 2182 5)"
  }),
  soa: spec({
    id: "dns.soa",
    title: "SOA record",
    category: "dns",
    maxPoints: 1,
    level: "required",
    rule: "The apex answers an SOA record"
  }),
  mx: spec({
    id: "dns.mx.resolvable",
    title: "Mail servers resolve",
    category: "dns",
    maxPoints: 2,
    level: "required",
    rule: "Every MX target has an address; a null MX (RFC 7505) passes; with no MX, an implicit MX (the domain's own A/AAAA, RFC 5321 5.1) that answers SMTP passes, one that does not is not applicable"
  }),
  ptr: spec({
    id: "dns.ptr",
    title: "Reverse DNS of the mail servers",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "Every MX address has a PTR record"
  }),
  fcrdns: spec({
    id: "dns.fcrdns",
    title: "Forward-confirmed reverse DNS",
    category: "dns",
    maxPoints: 3,
    level: "recommended",
    rule: "A PTR name of every MX address resolves back to it"
  }),
  caa: spec({
    id: "dns.caa",
    title: "CAA",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "A CAA record restricts which CAs may issue (RFC 8659)"
  }),
  signed: spec({
    id: "dnssec.signed",
    title: "DNSSEC signed",
    category: "dnssec",
    maxPoints: 5,
    level: "recommended",
    rule: "The zone has DNSKEY records and a DS in its parent; not applicable under an unsigned parent (TLD)"
  }),
  valid: spec({
    id: "dnssec.valid",
    title: "DNSSEC validates",
    category: "dnssec",
    maxPoints: 5,
    level: "required",
    rule: "Validating resolvers reach `secure`; bogus is fatal (grade F); an unsigned zone fails, unless its parent (TLD) is unsigned: then not applicable"
  }),
  algorithm: spec({
    id: "dnssec.algorithm",
    title: "DNSSEC algorithm",
    category: "dnssec",
    maxPoints: 3,
    level: "recommended",
    rule: "RFC 8624 MUST/RECOMMENDED algorithm (8, 13, 14, 15), every RSA key at least 2048 bits (2 of 3 points below); not applicable when unsigned"
  }),
  nsec3: spec({
    id: "dnssec.nsec3",
    title: "NSEC3 parameters",
    category: "dnssec",
    maxPoints: 1,
    level: "recommended",
    rule: "NSEC, or NSEC3 with 0 iterations and no salt (RFC 9276); not applicable when unsigned"
  }),
  rrsig: spec({
    id: "dnssec.rrsig",
    title: "Signature validity",
    category: "dnssec",
    maxPoints: 1,
    level: "recommended",
    rule: "No RRSIG expired or expiring within 7 days; not applicable when unsigned"
  }),
  ipv6Mx: spec({
    id: "ipv6.mx",
    title: "IPv6 for mail",
    category: "ipv6",
    maxPoints: 3,
    level: "recommended",
    rule: "At least one MX address is IPv6 (AAAA); not applicable without MX"
  }),
  ipv6Web: spec({
    id: "ipv6.web",
    title: "IPv6 for the web site",
    category: "ipv6",
    maxPoints: 3,
    level: "recommended",
    rule: "The domain has an AAAA record; not applicable when it has no A or AAAA"
  })
} as const

/** The lookup's outcome of a type: answer, nodata, nxdomain, or the failure reason. */
const outcomeOf = (l: LookupResult, type: string): string => l.outcomes[type] ?? "not asked"
const settled = (o: string) => o === "answer" || o === "nodata" || o === "nxdomain"
export const noSuchDomain = (l: LookupResult): boolean => Object.values(l.outcomes).includes("nxdomain")

const recordRule =
  (type: string, enough: number, what: string, issue: "ns_single" | "soa_missing" | "caa_missing") =>
  (l: LookupResult): Verdict => {
    const o = outcomeOf(l, type)
    if (noSuchDomain(l)) return fail("no such domain (NXDOMAIN)", "dns_no_such_domain")
    if (!settled(o)) return unknown(`the ${type} lookup failed: ${o}`)
    const n = (l.records[type] ?? []).filter((r) => r.type === type).length
    return n >= enough ? pass(`${n} ${type} record(s)`) : fail(`${n} ${type} record(s); ${what}`, issue)
  }

/** Why the implicit MX is not judged (RFC 5321 5.1): nothing answered SMTP at the domain's own address. */
const SILENT_IMPLICIT_MX =
  "no MX, and nothing answers SMTP at the domain's own address (the implicit MX, RFC 5321 5.1): scored as a domain without mail"

/**
 * The transport rules' gate over the SMTP TLS result: not applicable without mail servers, and not
 * applicable either when the only mail server is an implicit MX that nothing answers on (a web-only
 * domain without a null MX): that domain does not receive mail, it is not a broken mail server.
 * Null when there are servers to judge.
 */
export const noMailServers = (s: SmtpTlsResult): Verdict | null =>
  s.servers.length === 0
    ? notApplicable("no mail servers")
    : s.summary.implicitMxSilent
      ? notApplicable(SILENT_IMPLICIT_MX)
      : null

/** The SMTP TLS result says the implicit MX did not answer (see `noMailServers`). */
export const silentImplicitMx = (scan: ScanResult): boolean =>
  Boolean(scan.checks["smtp-tls"].result?.summary.implicitMxSilent)

export const dnsRecords = (scan: ScanResult): ReadonlyArray<Scored> => {
  const c = scan.checks
  const lookup = c["dns-records"]
  const smtp = c["smtp-tls"]
  const nullMx = judge(c["mta-sts"], (m) => (m.mx.nullMx ? pass("null MX") : notApplicable("")))
  const mx = judge(smtp, (s): Verdict => {
    if (nullMx.status === "pass") return pass("null MX (RFC 7505): the domain receives no mail")
    if (s.mxStatus === "implicit") {
      // RFC 7505 1: without a null MX, senders try the A/AAAA and queue mail for days. Advice, no points.
      if (s.summary.implicitMxSilent)
        return { ...notApplicable(SILENT_IMPLICIT_MX), issues: ["null_mx_missing"] }
      return s.servers.length === 0
        ? unknown("the address of the implicit MX could not be looked up")
        : pass("no MX: the domain's own address receives mail (implicit MX, RFC 5321 5.1)")
    }
    if (s.mxRecords.length === 0) return notApplicable("no MX records")
    const hosts = s.mxRecords.map((r) => r.host)
    const missing = hosts.filter((h) => !s.servers.some((srv) => srv.host === h))
    return missing.length === 0
      ? pass(`${hosts.length} MX host(s) resolve`)
      : fail(`no address for ${missing.join(", ")}`, "mx_unresolvable")
  })
  const fc = judge(c.fcrdns, (f) => {
    const rs = f.result.results
    if (!f.result.checked || rs.length === 0) return notApplicable("no mail server addresses to check")
    if (rs.some((r) => r.status === "unknown" && r.ptrRecords.length === 0))
      return unknown("a PTR lookup failed")
    const noPtr = rs.filter((r) => r.ptrRecords.length === 0)
    return noPtr.length === 0
      ? pass(`every MX address (${rs.length}) has a PTR`)
      : fail(`no PTR for ${noPtr.map((r) => r.ip).join(", ")}`, "ptr_missing")
  })
  const confirmed = judge(c.fcrdns, (f) => {
    const rs = f.result.results
    if (!f.result.checked || rs.length === 0) return notApplicable("no mail server addresses to check")
    // Without a PTR there is nothing to confirm: the fix is the PTR (dns.ptr), one issue, not two.
    if (rs.some((r) => r.ptrRecords.length === 0 && r.status !== "unknown"))
      return fail("an MX address has no PTR to confirm", "ptr_missing")
    const bad = rs.filter((r) => r.forwardConfirmed === false)
    if (bad.length > 0)
      return fail(`not forward-confirmed: ${bad.map((r) => r.ip).join(", ")}`, "fcrdns_mismatch")
    return rs.some((r) => r.forwardConfirmed === null)
      ? unknown("a reverse or forward lookup failed")
      : pass("every MX address is forward-confirmed")
  })
  const silent = silentImplicitMx(scan)
  const gate = (v: Verdict) =>
    nullMx.status === "pass" ? notApplicable("null MX") : silent ? notApplicable(SILENT_IMPLICIT_MX) : v
  return [
    scored(DNS_SPECS.ns, judge(lookup, recordRule("NS", 2, "at least two are needed", "ns_single"))),
    scored(DNS_SPECS.soa, judge(lookup, recordRule("SOA", 1, "the apex must have one", "soa_missing"))),
    scored(DNS_SPECS.mx, mx),
    scored(DNS_SPECS.ptr, gate(fc)),
    scored(DNS_SPECS.fcrdns, gate(confirmed)),
    scored(DNS_SPECS.caa, judge(lookup, recordRule("CAA", 1, "no CAA record", "caa_missing")))
  ]
}

/** Under an unsigned parent (an unsigned TLD) a zone cannot have a chain of trust: nothing to judge. */
const cannotSign = (r: { readonly signed: boolean; readonly parentSigned: boolean | null }) =>
  !r.signed && r.parentSigned === false

export const dnssecRecords = (scan: ScanResult): ReadonlyArray<Scored> => {
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
      DNS_SPECS.signed,
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
      DNS_SPECS.valid,
      judge(d, (r) =>
        r.state === "secure"
          ? pass("validating resolvers answer secure")
          : r.state === "bogus"
            ? { status: "fail", detail: "validation fails (bogus)", issues: ["dnssec_bogus"], fatal: true }
            : r.state === "insecure"
              ? cannotSign(r)
                ? parentUnsigned
                : fail("not signed, so nothing validates", "dnssec_unsigned")
              : unknown("the resolver could not be asked")
      )
    ),
    scored(
      DNS_SPECS.algorithm,
      unsignedOr((r) =>
        r.rrsig.algorithmSecurity === "modern"
          ? r.issues.some((i) => i.code === "dnskey-rsa-short")
            ? partial(2, "an RSA key below 2048 bits (NIST SP 800-57)", "dnssec_rsa_key_short")
            : pass("RFC 8624 recommended algorithm")
          : r.rrsig.algorithmSecurity === "unknown"
            ? unknown("the algorithm could not be read")
            : r.rrsig.algorithmSecurity === "acceptable"
              ? partial(2, "an algorithm RFC 8624 allows but does not recommend", "dnssec_weak_algorithm")
              : fail(`${r.rrsig.algorithmSecurity} algorithm (RFC 8624)`, "dnssec_weak_algorithm")
      )
    ),
    scored(
      DNS_SPECS.nsec3,
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
      DNS_SPECS.rrsig,
      unsignedOr((r) => {
        if (!r.rrsig.exists) return unknown("no signatures could be read")
        const soon = r.rrsig.records.filter((s) => s.isExpired || s.daysUntilExpiry < 7)
        return soon.length === 0
          ? pass("every signature valid for 7 days or more")
          : fail(`${soon.length} signature(s) expired or expiring within 7 days`, "dnssec_rrsig_expiring")
      })
    )
  ]
}

export const ipv6Records = (scan: ScanResult): ReadonlyArray<Scored> => {
  const c = scan.checks
  const mx = judge(c["smtp-tls"], (s) => {
    const none = noMailServers(s)
    if (none) return none
    return s.servers.some((srv) => srv.family === 6)
      ? pass("a mail server has an IPv6 address")
      : fail("no mail server has an IPv6 address", "ipv6_mx_missing")
  })
  const web = judge(c["dns-records"], (l) => {
    const aaaa = outcomeOf(l, "AAAA")
    const a = outcomeOf(l, "A")
    if (!settled(aaaa)) return unknown(`the AAAA lookup failed: ${aaaa}`)
    if ((l.records["AAAA"] ?? []).some((r) => r.type === "AAAA")) return pass("the domain has an AAAA record")
    if (!settled(a)) return unknown(`the A lookup failed: ${a}`)
    return (l.records["A"] ?? []).some((r) => r.type === "A")
      ? fail("an A record but no AAAA", "ipv6_web_missing")
      : notApplicable("no web address at the apex")
  })
  return [scored(DNS_SPECS.ipv6Mx, mx), scored(DNS_SPECS.ipv6Web, web)]
}
