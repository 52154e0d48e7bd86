/**
 * The rules of the DNS records check (docs/scoring.md): the apex's NS, SOA and CAA, the mail
 * servers' resolvability, and IPv6 for mail and web. It also holds the gates the mail-transport
 * rules of other checks share (no mail servers, a null MX, a silent implicit MX, a domain that does
 * not exist).
 */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { LookupResult } from "./LookupResult.ts"
import type { SmtpTlsResult } from "../smtp-tls/SmtpTlsResult.ts"
import type { MtaStsResult } from "../mta-sts/MtaStsResult.ts"

export const DNS_SPECS = {
  ns: spec({
    id: "dns.ns.count",
    title: "Name servers",
    titleNl: "Nameservers",
    category: "dns",
    maxPoints: 3,
    level: "required",
    rule: "At least two NS records (RFC 2182 5)",
    rank: 10
  }),
  soa: spec({
    id: "dns.soa",
    title: "SOA record",
    titleNl: "SOA-record",
    category: "dns",
    maxPoints: 1,
    level: "required",
    rule: "The apex answers an SOA record",
    rank: 20
  }),
  mx: spec({
    id: "dns.mx.resolvable",
    title: "Mail servers resolve",
    titleNl: "Mailservers zijn te vinden in de DNS",
    category: "dns",
    concerns: "mail",
    maxPoints: 2,
    level: "required",
    rule: "Every MX target has an address; a null MX (RFC 7505) passes; with no MX, an implicit MX (the domain's own A/AAAA, RFC 5321 5.1) that answers SMTP passes, one that does not is not applicable",
    rank: 30
  }),
  caa: spec({
    id: "dns.caa",
    title: "CAA",
    titleNl: "CAA",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "A CAA record restricts which CAs may issue (RFC 8659)",
    rank: 60
  }),
  ipv6Mx: spec({
    id: "ipv6.mx",
    title: "IPv6 for mail",
    titleNl: "IPv6 voor mail",
    category: "ipv6",
    concerns: "mail",
    maxPoints: 3,
    level: "recommended",
    rule: "At least one MX address is IPv6 (AAAA); not applicable without MX",
    rank: 10
  }),
  ipv6Web: spec({
    id: "ipv6.web",
    title: "IPv6 for the web site",
    titleNl: "IPv6 voor de website",
    category: "ipv6",
    concerns: "web",
    maxPoints: 3,
    level: "recommended",
    rule: "The domain has an AAAA record; not applicable when it has no A or AAAA",
    rank: 20
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
export const SILENT_IMPLICIT_MX =
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

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = {
  readonly "dns-records": LookupResult
  readonly "smtp-tls": SmtpTlsResult
  readonly "mta-sts": MtaStsResult
}

/** The SMTP TLS result says the implicit MX did not answer (see `noMailServers`). */
export const silentImplicitMx = (scan: Judging<{ readonly "smtp-tls": SmtpTlsResult }>): boolean =>
  Boolean(scan.checks["smtp-tls"].result?.summary.implicitMxSilent)

/**
 * The domain publishes a null MX (RFC 7505): it receives no mail, so the rules about its mail do
 * not apply. The MTA-STS check reads the MX; false when that check did not finish.
 */
export const publishesNullMx = (scan: Judging<{ readonly "mta-sts": MtaStsResult }>): boolean =>
  judge(scan.checks["mta-sts"], (m) => (m.mx.nullMx ? pass("null MX") : notApplicable(""))).status === "pass"

const dnsRecords = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const lookup = c["dns-records"]
  const smtp = c["smtp-tls"]
  const nullMx = publishesNullMx(scan)
  const mx = judge(smtp, (s): Verdict => {
    if (nullMx) return pass("null MX (RFC 7505): the domain receives no mail")
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
  return [
    scored(DNS_SPECS.ns, judge(lookup, recordRule("NS", 2, "at least two are needed", "ns_single"))),
    scored(DNS_SPECS.soa, judge(lookup, recordRule("SOA", 1, "the apex must have one", "soa_missing"))),
    scored(DNS_SPECS.mx, mx),
    scored(DNS_SPECS.caa, judge(lookup, recordRule("CAA", 1, "no CAA record", "caa_missing")))
  ]
}

const ipv6Records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
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

export const rules = rulesOver<Reads>(Object.values(DNS_SPECS), (scan: Judging<Reads>) => [
  ...dnsRecords(scan),
  ...ipv6Records(scan)
])

/** The rule whose failure is fatal when the domain does not exist (every rule fails then). */
export const NO_SUCH_DOMAIN_FATAL = DNS_SPECS.ns.id
