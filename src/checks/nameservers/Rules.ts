/**
 * The rules of the name-server check (docs/scoring.md): each property Zonemaster tests, scored
 * once. The count of name servers stays the DNS records check's `dns.ns.count`.
 */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { NsVerdict } from "./Result.ts"
import type { NameServersReport } from "./Result.ts"

export const NS_SPECS = {
  networks: spec({
    id: "dns.ns.networks",
    title: "Name servers in different networks",
    titleNl: "Nameservers in verschillende netwerken",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "The name servers' IPv4 addresses span at least two /24 prefixes, and their IPv6 addresses two /48s when there are several (RFC 2182 3.1)",
    rank: 11
  }),
  authoritative: spec({
    id: "dns.ns.authoritative",
    title: "Name servers answer authoritatively",
    titleNl: "Nameservers antwoorden gezaghebbend",
    category: "dns",
    maxPoints: 3,
    level: "required",
    rule: "Every address of every name server answers the zone's SOA with authority: no lame delegation (RFC 1912 2.8)",
    rank: 12
  }),
  consistent: spec({
    id: "dns.ns.consistent",
    title: "Name servers agree",
    titleNl: "Nameservers geven hetzelfde antwoord",
    category: "dns",
    maxPoints: 2,
    level: "required",
    rule: "Every name server serves one SOA serial and one NS set, the same as the parent's delegation",
    rank: 13
  }),
  tcp: spec({
    id: "dns.ns.tcp",
    title: "Name servers answer over TCP",
    titleNl: "Nameservers antwoorden via TCP",
    category: "dns",
    maxPoints: 1,
    level: "required",
    rule: "Every name server address answers over TCP (RFC 7766 5)",
    rank: 14
  }),
  recursion: spec({
    id: "dns.ns.recursion",
    title: "No open recursion",
    titleNl: "Geen open recursie",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "No name server recurses for a stranger's question (RFC 5358)",
    rank: 15
  }),
  ipv6: spec({
    id: "ipv6.ns",
    title: "IPv6 for the name servers",
    titleNl: "IPv6 voor de nameservers",
    category: "ipv6",
    maxPoints: 2,
    level: "recommended",
    rule: "At least one name server answers for the zone on an IPv6 address",
    rank: 30
  })
} as const

/** A verdict of the check as the rule's: fail names `issue`, not-applicable and unknown pass through. */
const asRule = (v: NsVerdict, issue: string): Verdict => {
  switch (v.status) {
    case "pass":
      return pass(v.message)
    case "unknown":
      return unknown(v.message)
    case "not-applicable":
      return notApplicable(v.message)
    default:
      return fail(v.message, issue)
  }
}

/** Each rule's verdict (`verdicts` of the report, named as its spec) and the issue its failure names. */
const ISSUES: { readonly [K in keyof typeof NS_SPECS]: string } = {
  networks: "ns_one_network",
  authoritative: "ns_lame",
  consistent: "ns_inconsistent",
  tcp: "ns_no_tcp",
  recursion: "ns_open_recursion",
  ipv6: "ns_no_ipv6"
}

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly nameservers: NameServersReport }

const nameServerRules = (scan: Judging<Reads>): ReadonlyArray<Ruling> =>
  (Object.keys(ISSUES) as Array<keyof typeof ISSUES>).map((key) =>
    scored(
      NS_SPECS[key],
      judge(scan.checks.nameservers, (r) => asRule(r.verdicts[key], ISSUES[key]))
    )
  )

export const rules = rulesOver<Reads>(Object.values(NS_SPECS), nameServerRules)
