/**
 * The evidence a report page shows under its findings, read from the report's typed results
 * (`machineReadable.scan.checks`): the DNS records as served, the SPF include tree with the lookups
 * each branch costs (RFC 7208 §4.6.4 allows ten), the DNSSEC chain from the parent's DS to the
 * zone's keys (RFC 4035 §5), and each mail server's STARTTLS and certificate (RFC 3207, RFC 8314).
 * A check that could not finish shows that, never an empty table that reads as "nothing". Pure.
 */
import type { SpfNode } from "../checks/spf/SpfNode.ts"
import type { EverythingReport } from "../report/ReportSchema.ts"
import { type Html, html } from "./Html.ts"
import { statusBadge, table } from "./Layout.ts"
import { type Lang, words } from "./Text.ts"

interface Outcome {
  readonly status: string
  readonly reason: string | null
  readonly result: unknown
}

const outcomeOf = (report: EverythingReport, check: string): Outcome | undefined =>
  (report.machineReadable.scan.checks as Readonly<Record<string, Outcome | undefined>>)[check]

const unfinished = (outcome: Outcome | undefined, lang: Lang): Html | undefined =>
  outcome === undefined || outcome.result === null || outcome.status === "unknown"
    ? html`<p>
        ${statusBadge("unknown", lang)} ${words(lang).notFinished} ${outcome?.reason ?? "no result"}
      </p>`
    : undefined

interface DnsRecord {
  readonly type: string
  readonly name: string
  readonly ttl: number
  readonly data: string
}

interface DnsRecords {
  readonly records?: Readonly<Record<string, ReadonlyArray<DnsRecord>>>
}

const dnsRecords = ({ records }: DnsRecords, lang: Lang): Html => {
  const w = words(lang)
  const rows = Object.values(records ?? {})
    .flat()
    .map((r) => [
      r.type,
      html`<span class="mono">${r.name}</span>`,
      String(r.ttl),
      html`<span class="mono">${r.data}</span>`
    ])
  return table(w.records, [w.recordType, "Name", "TTL", w.recordData], rows)
}

const spfNode = (node: SpfNode, lang: Lang): Html => {
  const label = node.term ?? node.record ?? node.type
  const children = node.children.filter(
    (c) => c.totalLookups > 0 || c.children.length > 0 || c.errors.length > 0 || c.type === "include"
  )
  return html`<li>
    <span class="mono">${label}</span
    >${node.domain !== null && !label.endsWith(node.domain) ? html` (<span class="mono">${node.domain}</span>)` : ""}
    ·
    ${node.status === "ok" ? statusBadge("pass", lang) : html`<span class="status tone-fail"><span class="icon" aria-hidden="true">✗</span> ${node.status}</span>`}
    · ${node.totalLookups}
    ${words(lang).lookups}${node.errors.length > 0 ? html` · ${node.errors.join("; ")}` : ""}${
      children.length > 0
        ? html`<ul>
            ${children.map((c) => spfNode(c, lang))}
          </ul>`
        : ""
    }
  </li>`
}

const spfTree = (graph: SpfNode | null | undefined, lang: Lang): Html => {
  const w = words(lang)
  return graph === null || graph === undefined
    ? html`<p>${w.spfNone}</p>`
    : html`<p class="mono">${graph.record ?? ""}</p>
        <ul class="tree">
          ${spfNode(graph, lang)}
        </ul>`
}

interface ChainEntry {
  readonly type: string
  readonly domain: string
  readonly keyTag?: number
  readonly algorithm: number
  readonly algorithmName: string
  readonly role?: string
  readonly digestTypeName?: string
  readonly digest: string
  readonly publicKey: string
  readonly matched?: boolean
  readonly dsCheck?: string
}

interface DnssecChain {
  readonly chain?: ReadonlyArray<ChainEntry>
  readonly state?: string
}

const dnssecChain = (result: DnssecChain, lang: Lang): Html => {
  const w = words(lang)
  const chain = result.chain ?? []
  if (chain.length === 0) return html`<p>${w.dnssecNone}</p>`
  const rows = chain.map((k) => [
    k.type,
    html`<span class="mono">${k.domain}</span>`,
    k.role ?? "",
    k.keyTag === undefined ? "" : String(k.keyTag),
    `${k.algorithm} ${k.algorithmName}`,
    html`<span class="mono"
      >${k.type === "DS" ? `${k.digestTypeName ?? ""} ${k.digest}` : k.publicKey.slice(0, 44) + (k.publicKey.length > 44 ? "…" : "")}</span
    >`,
    k.matched === undefined ? "" : k.matched ? w.yes : w.no
  ])
  return html`<p>${result.state ?? ""}</p>
    ${table(w.dnssecChain, ["Type", "Name", w.keyRole, w.keyTag, w.algorithm, w.recordData, w.dsMatch], rows)}`
}

interface MxServer {
  readonly host: string
  readonly ip: string | null
  readonly status: string
  readonly starttls: boolean | null
  readonly tlsVersion: string | null
  readonly cipher: string | null
  readonly error: string | null
  readonly certificate: {
    readonly subject: string
    readonly issuerCommonName: string
    readonly validTo: string
  } | null
}

interface MxServers {
  readonly servers?: ReadonlyArray<MxServer>
}

const mxTls = (result: MxServers, lang: Lang): Html => {
  const w = words(lang)
  const servers = result.servers ?? []
  if (servers.length === 0) return html`<p>${w.mxNone}</p>`
  const rows = servers.map((s) => [
    html`<span class="mono">${s.host}</span>`,
    html`<span class="mono">${s.ip ?? ""}</span>`,
    statusBadge(s.status, lang),
    s.starttls === true
      ? `STARTTLS ${s.tlsVersion ?? ""} ${s.cipher ?? ""}`
      : (s.error ?? (s.starttls === false ? "no STARTTLS" : "")),
    s.certificate === null
      ? ""
      : `${s.certificate.subject} (${s.certificate.issuerCommonName}), ${w.validUntil} ${s.certificate.validTo.slice(0, 10)}`
  ])
  return table(w.mxTls, [w.server, w.address, w.status, w.tls, w.certificate], rows)
}

/** The evidence part of a report page: per block its heading, then the check's result shown, or that it could not finish. */
export const evidenceOf = (report: EverythingReport, lang: Lang): Html => {
  const w = words(lang)
  const block = <R>(id: string, title: string, check: string, show: (result: R) => Html): Html => {
    const outcome = outcomeOf(report, check)
    return html`<h3 id="${id}">${title}</h3>
      ${unfinished(outcome, lang) ?? show(outcome!.result as R)}`
  }
  const graph = (report.sections as { spf?: { lookupGraph?: SpfNode | null } }).spf?.lookupGraph
  return html`<section aria-labelledby="evidence">
    <h2 id="evidence">${w.evidence}</h2>
    ${block("ev-records", w.records, "dns-records", (result: DnsRecords) => dnsRecords(result, lang))}
    ${block("ev-spf", w.spfTree, "spf", () => spfTree(graph, lang))}
    ${block("ev-dnssec", w.dnssecChain, "dnssec", (result: DnssecChain) => dnssecChain(result, lang))}
    ${block("ev-mx", w.mxTls, "smtp-tls", (result: MxServers) => mxTls(result, lang))}
  </section>`
}
