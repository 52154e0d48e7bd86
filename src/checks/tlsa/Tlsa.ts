/**
 * DANE for SMTP (RFC 7672): the TLSA RRset at `_25._tcp.<mx>` for each MX host, what each record
 * means, and whether the resolver validated it (DANE is only usable with DNSSEC, RFC 7672 2.2).
 * Whether a record matches the server's certificate is the SMTP probe's job (see generate/Tlsa
 * `matchesCertificate`); this check reads DNS only.
 */
import { Effect } from "effect"
import type { DnsError } from "../../net/Dns.ts"
import type { TlsaData } from "../../net/DnsWire.ts"
import { normalizeName, Resolver } from "../../net/Resolver.ts"
import {
  matchingTypeDescription,
  MATCHING_TYPES,
  selectorDescription,
  SELECTORS,
  USAGES,
  usageDescription
} from "../../generate/Tlsa.ts"
import { askWithCd, type Gathered } from "../dnssec/Dnssec.ts"
import type { CheckStatus } from "../Status.ts"

export interface TlsaFacts {
  readonly domain: string
  /** The MX lookup: hosts by priority, or the failure. */
  readonly mx:
    | {
        readonly _tag: "Hosts"
        readonly hosts: ReadonlyArray<{ readonly priority: number; readonly exchange: string }>
      }
    | { readonly _tag: "Failed"; readonly error: DnsError }
  readonly tlsa: ReadonlyArray<{
    readonly host: string
    readonly priority: number
    readonly lookup: Gathered
  }>
}

export interface TlsaRecordView {
  readonly host: string
  readonly tlsaDomain: string
  readonly usage: number
  readonly selector: number
  readonly matchingType: number
  readonly certificateAssociationData: string
  readonly usageName: string
  readonly usageDescription: string
  readonly selectorDescription: string
  readonly matchingTypeDescription: string
  readonly text: string
  readonly issues: ReadonlyArray<string>
}

export interface TlsaHostResult {
  readonly host: string
  readonly priority: number
  readonly tlsaDomain: string
  readonly exists: boolean
  /** AD set on the TLSA answer (or its NODATA proof). */
  readonly dnssecValidated: boolean
  readonly status: CheckStatus
  readonly records: ReadonlyArray<TlsaRecordView>
  readonly issues: ReadonlyArray<string>
}

export interface TlsaResult {
  readonly domain: string
  readonly port: number
  readonly protocol: string
  /** The TLSA name of the most preferred MX host (SPEC field); every host is in `hosts`. */
  readonly tlsaDomain: string
  readonly exists: boolean
  readonly dnssecValidated: boolean
  readonly status: CheckStatus
  readonly records: ReadonlyArray<TlsaRecordView>
  readonly hosts: ReadonlyArray<TlsaHostResult>
  readonly issues: ReadonlyArray<string>
}

export const tlsaName = (host: string, port = 25) => `_${port}._tcp.${host}`

export const gather = Effect.fn("Tlsa.gather")(function* (name: string) {
  const resolver = yield* Resolver
  const domain = normalizeName(name)
  const mx = yield* Effect.either(resolver.mx(domain))
  if (mx._tag === "Left")
    return { domain, mx: { _tag: "Failed", error: mx.left }, tlsa: [] } satisfies TlsaFacts
  // A null MX (RFC 7505) accepts no mail: nothing to secure.
  const hosts = mx.right.filter((h) => h.exchange !== "")
  const tlsa = yield* Effect.forEach(
    hosts,
    (h) =>
      Effect.map(askWithCd(resolver, tlsaName(h.exchange), "TLSA"), (lookup) => ({
        host: h.exchange,
        priority: h.priority,
        lookup
      })),
    { concurrency: "unbounded" }
  )
  return { domain, mx: { _tag: "Hosts", hosts }, tlsa } satisfies TlsaFacts
})

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

/** Pure and total. */
export const analyse = (facts: TlsaFacts): TlsaResult => {
  const base = { domain: facts.domain, port: 25, protocol: "tcp" }
  if (facts.mx._tag === "Failed")
    return {
      ...base,
      tlsaDomain: "",
      exists: false,
      dnssecValidated: false,
      status: "unknown",
      records: [],
      hosts: [],
      issues: [`MX lookup failed (${facts.mx.error.reason}): ${facts.mx.error.message}`]
    }
  const hosts: Array<TlsaHostResult> = facts.tlsa.map(({ host, priority, lookup }) => {
    const tlsaDomain = tlsaName(host)
    if (lookup._tag === "Failed")
      return {
        host,
        priority,
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
