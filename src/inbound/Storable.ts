/**
 * A parsed report as the store keeps it: what the summaries read and nothing more (no recipient
 * domains, no `human_result` texts, only the domain of an envelope sender, reason comments cut
 * short; docs/reports-in.md "Privacy"). Pure.
 */
import { isValidSelector } from "../checks/dkim/Dkim.ts"
import type { DmarcAggregateReport, DmarcRecord, DmarcReportHead } from "./DmarcReport.ts"
import type { DmarcRowInsert, ReportHead, TlsPolicyInsert } from "../store/InboundReports.ts"
import type { TlsReport } from "./TlsReport.ts"

/**
 * A report as read: a DMARC report's records already folded into the rows the store keeps (a
 * large report is never held as parsed records), and every repair made while reading it.
 */
export type ParsedReport =
  | {
      readonly kind: "dmarc"
      readonly report: DmarcReportHead
      readonly fold: DmarcFold
      readonly warnings: ReadonlyArray<string>
      /** `sha256:<hex>` of the report as decompressed. */
      readonly contentHash: string
    }
  | {
      readonly kind: "tls"
      readonly report: TlsReport
      readonly warnings: ReadonlyArray<string>
      readonly contentHash: string
    }

export type ReportKind = ParsedReport["kind"]

export type StoredRows =
  | {
      readonly kind: "dmarc"
      readonly rows: ReadonlyArray<DmarcRowInsert>
      readonly selectors: ReadonlyArray<string>
    }
  | { readonly kind: "tls"; readonly rows: ReadonlyArray<TlsPolicyInsert> }

/** A reason comment naming ARC (RFC 8617): the receiver overrode a failure on an ARC chain it trusts. */
export const mentionsArc = (comment: string | null) => comment !== null && /\barc\b/i.test(comment)

/** The most of a receiver's reason comment kept: enough to say why, too little to carry a message. */
export const MAX_COMMENT = 200

/** The MAIL FROM domain: some receivers write the whole address, only its domain is kept (privacy). */
const envelopeDomain = (value: string | null) =>
  value === null
    ? ""
    : value
        .slice(value.lastIndexOf("@") + 1)
        .toLowerCase()
        .slice(0, 253)

const dmarcRow = (r: DmarcRecord): DmarcRowInsert => ({
  source_ip: r.sourceIp,
  count: r.count,
  disposition: r.disposition,
  dkim: r.dkim,
  spf: r.spf,
  overrides: [...new Set(r.reasons.map((x) => x.type))].sort().join(","),
  arc: r.reasons.some((x) => mentionsArc(x.comment)) ? 1 : 0,
  header_from: r.headerFrom,
  dkim_auth: r.authDkim
    .map((d) => `${d.domain}/${d.selector ?? ""}=${d.result}`)
    .sort()
    .join(" "),
  spf_auth: r.authSpf
    .map((s) => `${s.domain}=${s.result}`)
    .sort()
    .join(" "),
  envelope_from: envelopeDomain(r.envelopeFrom),
  reasons:
    r.reasons.length === 0
      ? ""
      : JSON.stringify(
          r.reasons.map((x) => ({ type: x.type, comment: x.comment?.slice(0, MAX_COMMENT) ?? null }))
        )
})

/** A DMARC report's records folded as they are read: the stored rows, the message count, the signers. */
export interface DmarcFold {
  readonly add: (record: DmarcRecord) => void
  readonly rows: ReadonlyArray<DmarcRowInsert>
  readonly messages: () => number
  /** Messages of records with an aligned SPF or DKIM pass (RFC 7489 4.2). */
  readonly dmarcPass: () => number
  /** `domain/selector` of every DKIM signature named. */
  readonly signers: ReadonlySet<string>
}

export const dmarcFold = (): DmarcFold => {
  const rows: Array<DmarcRowInsert> = []
  const signers = new Set<string>()
  let messages = 0
  let dmarcPass = 0
  return {
    add: (record) => {
      rows.push(dmarcRow(record))
      // counts are below 2^31 and records at most REPORTS_MAX_RECORDS: the sum stays far below 2^53
      messages += record.count
      if (record.dkim === "pass" || record.spf === "pass") dmarcPass += record.count
      for (const d of record.authDkim) if (d.selector !== null) signers.add(`${d.domain}/${d.selector}`)
    },
    rows,
    messages: () => messages,
    dmarcPass: () => dmarcPass,
    signers
  }
}

/** A whole report as parsed (examples, tests) as the stream would have folded it. */
export const parsedDmarc = (report: DmarcAggregateReport, contentHash: string): ParsedReport => {
  const fold = dmarcFold()
  for (const r of report.records) fold.add(r)
  const { records: _, ...head } = report
  return { kind: "dmarc", report: head, fold, warnings: [], contentHash }
}

/** The report's head and rows for the store. */
export const storable = (parsed: ParsedReport): { readonly head: ReportHead; readonly rows: StoredRows } => {
  if (parsed.kind === "dmarc") {
    const r = parsed.report
    const domain = r.policy.domain
    const selectors = new Set<string>()
    for (const signer of parsed.fold.signers) {
      const [d, selector] = signer.split("/") as [string, string]
      if (d === domain && isValidSelector(selector)) selectors.add(selector)
    }
    return {
      head: {
        kind: "dmarc",
        domain,
        reporter: r.orgName,
        reportId: r.reportId,
        begin: r.begin,
        end: r.end,
        records: parsed.fold.rows.length,
        messages: parsed.fold.messages(),
        contact: r.email,
        contentHash: parsed.contentHash,
        policy: JSON.stringify({ ...r.policy, generator: r.generator, version: r.version, errors: r.errors }),
        warnings: parsed.warnings,
        dmarcPass: parsed.fold.dmarcPass()
      },
      rows: { kind: "dmarc", rows: parsed.fold.rows, selectors: [...selectors].sort() }
    }
  }
  const t = parsed.report
  return {
    head: {
      kind: "tls",
      domain: t.domain,
      reporter: t.orgName,
      reportId: t.reportId,
      begin: t.begin,
      end: t.end,
      records: t.policies.length,
      messages: t.policies.reduce((n, p) => n + p.successfulSessions + p.failedSessions, 0),
      contact: t.contactInfo,
      contentHash: parsed.contentHash,
      warnings: parsed.warnings,
      policy: JSON.stringify(t.policies.map((p) => ({ type: p.policyType, domain: p.policyDomain })))
    },
    rows: {
      kind: "tls",
      rows: t.policies.map((p) => ({
        domain: p.policyDomain,
        policy_type: p.policyType,
        policy_domain: p.policyDomain,
        mx_hosts: JSON.stringify(p.mxHosts),
        successful: p.successfulSessions,
        failed: p.failedSessions,
        failures: JSON.stringify(
          p.failures.map((f) => ({
            type: f.resultType,
            mx: f.receivingMxHostname,
            count: f.failedSessions,
            reason: f.reasonCode,
            sendingIp: f.sendingMtaIp,
            receivingIp: f.receivingIp,
            helo: f.receivingMxHelo
          }))
        )
      }))
    }
  }
}
