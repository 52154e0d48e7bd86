/**
 * DANE for SMTP (RFC 7672), the `/dns/tlsa` result: the TLSA RRset at `_25._tcp.<mx>` for each MX
 * host, what each record means, whether the resolver validated it (DANE is only usable with DNSSEC,
 * RFC 7672 2.2), and, where records exist, whether they match the chain each MX address presents
 * (Dane.ts). The sessions are the scan's `facts.probe`, shared with the SMTP TLS check.
 */
import { Effect } from "effect"
import type { TlsaData } from "../../records/DnsRdata.ts"
import type { SmtpProbe } from "../../net/Smtp.ts"
import {
  matchingTypeDescription,
  MATCHING_TYPES,
  selectorDescription,
  SELECTORS,
  USAGES,
  usageDescription
} from "../../records/TlsaRecord.ts"
import { define } from "../../kernel/Check.ts"
import { askWithCd, type Gathered } from "../dnssec/Dnssec.ts"
import { Facts } from "../../kernel/Facts.ts"
import { MailServers, MX_BOGUS } from "../../kernel/MailServers.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { summarise, tlsaName, verifyHost } from "./Dane.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { TlsaResult, TlsaHost, TlsaRecord } from "./TlsaResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export * from "./TlsaResult.ts"

/** What `gather` collects: the MX hosts, each with its TLSA lookup and, when it has records, its sessions. */
export interface TlsaFacts {
  readonly domain: string
  /** Why the MX lookup failed, else null. */
  readonly mxError: string | null
  readonly hosts: ReadonlyArray<{
    readonly host: string
    readonly priority: number
    /** The implicit MX: no MX record, the domain itself (RFC 5321 5.1; TLSA per RFC 7672 2.2.3). */
    readonly implicit?: boolean
    readonly lookup: Gathered
    readonly probes: ReadonlyArray<SmtpProbe>
  }>
}

type TlsaRecordView = typeof TlsaRecord.Type

type TlsaHostResult = typeof TlsaHost.Type

/** The TLSA records alone, before DANE verification. */
export type TlsaReading = Omit<TlsaResult, "hosts" | "dane"> & {
  readonly hosts: ReadonlyArray<TlsaHostResult>
}

/** RFC 7672 3.1.3 and RFC 6698 2.1: what is wrong with one record for SMTP. */
export const recordIssues = (d: TlsaData): Array<string> => {
  const issues: Array<string> = []
  if (!USAGES[d.usage]) issues.push(`usage ${d.usage} is not assigned`)
  else if (d.usage <= 1)
    issues.push(`usage ${d.usage} (PKIX) is not used for SMTP (RFC 7672 3.1.3): MTAs ignore it`)
  if (!SELECTORS[d.selector]) issues.push(`selector ${d.selector} is not assigned`)
  if (!MATCHING_TYPES[d.matchingType]) issues.push(`matching type ${d.matchingType} is not assigned`)
  const expected = d.matchingType === 1 ? 64 : d.matchingType === 2 ? 128 : undefined
  if (expected !== undefined && d.certificate.length !== expected)
    issues.push(
      `the ${MATCHING_TYPES[d.matchingType]!.name} digest has ${d.certificate.length / 2} bytes, expected ${expected / 2}`
    )
  return issues
}

/** The TLSA records of every MX host, read (RFC 7672 2.2, 3.1.3). Pure and total. */
export const readTlsa = (facts: TlsaFacts): TlsaReading => {
  const base = { domain: facts.domain, port: 25, protocol: "tcp" }
  if (facts.mxError !== null)
    return {
      ...base,
      tlsaDomain: "",
      exists: false,
      dnssecValidated: false,
      status: "unknown",
      records: [],
      hosts: [],
      issues: [facts.mxError === MX_BOGUS ? MX_BOGUS : `MX lookup failed (${facts.mxError})`]
    }
  const hosts: Array<TlsaHostResult> = facts.hosts.map(({ host, priority, implicit: isImplicit, lookup }) => {
    const tlsaDomain = tlsaName(host)
    const implicit = isImplicit === true
    if (lookup._tag === "Failed")
      return {
        host,
        priority,
        implicit,
        tlsaDomain,
        exists: false,
        dnssecValidated: false,
        status: "unknown",
        records: [],
        issues: [`TLSA lookup failed (${lookup.error.reason}): ${lookup.error.message}`]
      }
    const records: Array<TlsaRecordView> = lookup.answer.answers
      .filter((r) => r.type === "TLSA")
      .map((r) => {
        const d = r.data as TlsaData
        return {
          host,
          tlsaDomain,
          usage: d.usage,
          selector: d.selector,
          matchingType: d.matchingType,
          certificateAssociationData: d.certificate,
          usageName: USAGES[d.usage]?.name ?? `unassigned-${d.usage}`,
          usageDescription: usageDescription(d.usage),
          selectorDescription: selectorDescription(d.selector),
          matchingTypeDescription: matchingTypeDescription(d.matchingType),
          text: r.text,
          issues: recordIssues(d)
        }
      })
    const validated = !lookup.bogus && lookup.answer.flags.ad
    const issues: Array<string> = []
    if (lookup.bogus)
      issues.push(
        "the TLSA RRset is bogus (fails DNSSEC validation): DANE-aware senders will not deliver (RFC 7672 2.2)"
      )
    else if (records.length > 0 && !validated)
      issues.push("TLSA records exist but are not DNSSEC-validated: senders ignore them (RFC 7672 2.2)")
    if (records.length > 0 && records.every((r) => r.usage <= 1))
      issues.push("only PKIX usages (0/1) are published: no usable DANE-TA/DANE-EE record for SMTP")
    const status: CheckStatus =
      records.length === 0
        ? lookup.bogus
          ? "fail"
          : "missing"
        : lookup.bogus || !validated
          ? "fail"
          : records.some((r) => r.issues.length > 0)
            ? "warning"
            : "pass"
    return {
      host,
      priority,
      implicit,
      tlsaDomain,
      exists: records.length > 0,
      dnssecValidated: validated,
      status,
      records,
      issues
    }
  })
  const issues = hosts.flatMap((h) => h.issues.map((i) => `${h.host}: ${i}`))
  if (hosts.length === 0)
    issues.push("the domain has no MX hosts: there is no SMTP server to protect with DANE")
  const some = hosts.some((h) => h.exists)
  if (some && hosts.some((h) => !h.exists && h.status !== "unknown"))
    issues.push(
      "some MX hosts have TLSA records and others do not: senders fall back to unauthenticated TLS on those"
    )
  const statuses = hosts.map((h) => h.status)
  const status: CheckStatus =
    hosts.length === 0
      ? "not-applicable"
      : statuses.includes("fail")
        ? "fail"
        : statuses.includes("unknown")
          ? "unknown"
          : !some
            ? "missing"
            : statuses.includes("missing") || statuses.includes("warning")
              ? "warning"
              : "pass"
  const withRecords = hosts.filter((h) => h.exists)
  return {
    ...base,
    tlsaDomain: hosts[0]?.tlsaDomain ?? tlsaName(facts.domain),
    exists: some,
    dnssecValidated: withRecords.length > 0 && withRecords.every((h) => h.dnssecValidated),
    status,
    records: hosts.flatMap((h) => h.records),
    hosts,
    issues
  }
}

/**
 * The TLSA reading with DANE verification attached: each host's RRset (bogus answers included, as
 * not validated) against the chains its addresses presented. The status becomes `fail` when a
 * validated RRset matches no presented chain, `unknown` when the servers could not be compared.
 */
export const analyse = (facts: TlsaFacts): TlsaResult => {
  const reading = readTlsa(facts)
  const hosts = reading.hosts.map((h) => {
    const gathered = facts.hosts.find((g) => g.host === h.host)
    return {
      ...h,
      dane:
        h.exists && gathered && gathered.lookup._tag === "Answer"
          ? verifyHost(h.host, gathered.lookup, gathered.probes)
          : null
    }
  })
  const dane = summarise(hosts.flatMap((h) => (h.dane ? [h.dane] : [])))
  const status: CheckStatus =
    dane.status === "fail"
      ? "fail"
      : dane.status === "unknown" && reading.status === "pass"
        ? "unknown"
        : reading.status
  const issues = [
    ...reading.issues,
    ...hosts.flatMap((h) => h.dane?.issues.filter((i) => !i.includes("not DNSSEC-validated")) ?? [])
  ]
  return { ...reading, status, hosts, issues, dane }
}

/** GET /dns/tlsa: TLSA records of every MX host and their DANE verification. */
const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  const hosts = yield* forEachConcurrently(
    servers.hosts,
    (h) =>
      Effect.gen(function* () {
        const lookup = yield* askWithCd(facts, tlsaName(h.host), "TLSA")
        // The addresses are probed only when there are records to verify them against.
        const published = lookup._tag === "Answer" && lookup.answer.answers.some((r) => r.type === "TLSA")
        const probes = published
          ? yield* forEachConcurrently([...h.v4, ...h.v6], (ip) => facts.probe(h.host, ip), "unbounded")
          : []
        return { host: h.host, priority: h.priority, implicit: h.implicit, lookup, probes }
      }),
    "unbounded"
  )
  return {
    domain: facts.domain,
    mxError: servers.mxStatus === "unknown" ? (servers.error ?? "no answer") : null,
    hosts
  } satisfies TlsaFacts
})

export const Tlsa = define(about, { gather, analyse, exampleGathered })
