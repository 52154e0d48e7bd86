/**
 * A parsed report as the store keeps it: what the summaries read and nothing more (no recipient
 * domains, no free-text results; docs/reports-in.md "Privacy"). Pure.
 */
import { isValidSelector } from "../checks/dkim/Dkim.ts"
import type { DmarcRecord } from "./DmarcReport.ts"
import type { ParsedReport } from "./Decode.ts"
import type { DmarcRowInsert, ReportHead, TlsPolicyInsert } from "../store/InboundReports.ts"

export type StoredRows =
  | {
      readonly kind: "dmarc"
      readonly rows: ReadonlyArray<DmarcRowInsert>
      readonly selectors: ReadonlyArray<string>
    }
  | { readonly kind: "tls"; readonly rows: ReadonlyArray<TlsPolicyInsert> }

/** A reason comment naming ARC (RFC 8617): the receiver overrode a failure on an ARC chain it trusts. */
export const mentionsArc = (comment: string | null) => comment !== null && /\barc\b/i.test(comment)

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
    .join(" ")
})

/** The report's head and rows for the store. */
export const storable = (parsed: ParsedReport): { readonly head: ReportHead; readonly rows: StoredRows } => {
  if (parsed.kind === "dmarc") {
    const r = parsed.report
    const domain = r.policy.domain
    const selectors = new Set<string>()
    for (const rec of r.records)
      for (const d of rec.authDkim)
        if (d.domain === domain && d.selector !== null && isValidSelector(d.selector))
          selectors.add(d.selector)
    return {
      head: {
        kind: "dmarc",
        domain,
        reporter: r.orgName,
        reportId: r.reportId,
        begin: r.begin,
        end: r.end,
        records: r.records.length,
        messages: r.records.reduce((n, x) => n + x.count, 0),
        contact: r.email,
        policy: JSON.stringify({ ...r.policy, generator: r.generator, version: r.version, errors: r.errors })
      },
      rows: { kind: "dmarc", rows: r.records.map(dmarcRow), selectors: [...selectors].sort() }
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
      policy: JSON.stringify(t.policies.map((p) => ({ type: p.policyType, domain: p.policyDomain })))
    },
    rows: {
      kind: "tls",
      rows: t.policies.map((p) => ({
        policy_type: p.policyType,
        policy_domain: p.policyDomain,
        mx_hosts: JSON.stringify(p.mxHosts),
        successful: p.successfulSessions,
        failed: p.failedSessions,
        failures: JSON.stringify(
          p.failures.map((f) => ({ type: f.resultType, mx: f.receivingMxHostname, count: f.failedSessions }))
        )
      }))
    }
  }
}
