/**
 * Examples of the reports-in group: an aggregate report as a receiver mails it and an SMTP TLS
 * report, parsed by the service's parsers, reduced to the rows the store keeps (`storable`), and
 * summarised by the summary builders.
 */
import { Either } from "effect"
import { postedWith } from "../../inbound/Authenticity.ts"
import { parseDmarcXml } from "../../inbound/DmarcXml.ts"
import { readFailureReport } from "../../inbound/FailureReport.ts"
import type { FailureIngestResult } from "../../inbound/FailureReportsIn.ts"
import { summariseFailures } from "../../inbound/FailureSummary.ts"
import { summariseDmarc } from "../../inbound/DmarcSummary.ts"
import { type IngestResult, result as ingestResult } from "../../inbound/ReportsIn.ts"
import { type ParsedReport, parsedDmarc, storable } from "../../inbound/Storable.ts"
import { parseTlsReport } from "../../inbound/TlsReport.ts"
import { summariseTls } from "../../inbound/TlsSummary.ts"
import type { SourceGroup } from "../../store/InboundReports.ts"
import type { Example } from "./Example.ts"
import { DOMAIN, MX_HOST, NOW } from "../../kernel/examples/ExampleZone.ts"

const LIMITS = { maxRecords: 10_000 }
const BEGIN = 1_795_996_800 // 2026-11-30T00:00:00Z, the day before the example scan
const END = BEGIN + 86_399

const row = (ip: string, count: number, dkim: string, spf: string, auth: string) => `
  <record>
    <row><source_ip>${ip}</source_ip><count>${count}</count>
      <policy_evaluated><disposition>${dkim === "pass" || spf === "pass" ? "none" : "reject"}</disposition><dkim>${dkim}</dkim><spf>${spf}</spf></policy_evaluated></row>
    <identifiers><header_from>example.com</header_from></identifiers>
    <auth_results>${auth}</auth_results>
  </record>`

/** A day of mail from example.com as a large mailbox provider reports it (RFC 7489 Appendix C). */
const DMARC_XML = `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata><org_name>mail.example.org</org_name><email>noreply-dmarc@mail.example.org</email>
    <report_id>17959968001234567890</report_id><date_range><begin>${BEGIN}</begin><end>${END}</end></date_range></report_metadata>
  <policy_published><domain>example.com</domain><adkim>s</adkim><aspf>r</aspf><p>reject</p><sp>reject</sp><pct>100</pct></policy_published>
  ${row("192.0.2.25", 1840, "pass", "pass", "<dkim><domain>example.com</domain><selector>selector1</selector><result>pass</result></dkim><spf><domain>example.com</domain><result>pass</result></spf>")}
  ${row("198.51.100.7", 312, "pass", "pass", "<dkim><domain>example.com</domain><selector>selector1</selector><result>pass</result></dkim><spf><domain>example.com</domain><result>pass</result></spf>")}
  ${row("203.0.113.99", 4, "fail", "fail", "<spf><domain>example.net</domain><result>fail</result></spf>")}
</feedback>`

/** The same day's SMTP TLS report (RFC 8460 4.4): every session with the MX negotiated TLS. */
const TLS_JSON = JSON.stringify({
  "organization-name": "mail.example.org",
  "date-range": { "start-datetime": "2026-11-30T00:00:00Z", "end-datetime": "2026-11-30T23:59:59Z" },
  "contact-info": "smtp-tls-reporting@mail.example.org",
  "report-id": "2026-11-30T00:00:00Z_example.com",
  policies: [
    {
      policy: {
        "policy-type": "sts",
        "policy-string": ["version: STSv1", "mode: testing", `mx: ${MX_HOST}`, "max_age: 604800"],
        "policy-domain": DOMAIN,
        "mx-host": [MX_HOST]
      },
      summary: { "total-successful-session-count": 2148, "total-failure-session-count": 2 },
      "failure-details": [
        {
          "result-type": "certificate-expired",
          "sending-mta-ip": "198.51.100.20",
          "receiving-mx-hostname": MX_HOST,
          "failed-session-count": 2
        }
      ]
    }
  ]
})

const parsed = (kind: "dmarc" | "tls"): ParsedReport => {
  if (kind === "dmarc") {
    const report = parseDmarcXml(DMARC_XML, LIMITS)
    if ("_tag" in report) throw new Error(`the example DMARC report is refused: ${report.message}`)
    return parsedDmarc(report, "sha256:example-dmarc")
  }
  const report = parseTlsReport(TLS_JSON, LIMITS)
  if ("_tag" in report) throw new Error(`the example TLS report is refused: ${report.message}`)
  return { kind, report, warnings: [], contentHash: "sha256:example-tls" }
}

const ingested = (kind: "dmarc" | "tls"): IngestResult => {
  const report = parsed(kind)
  return ingestResult(
    storable(report).head,
    { fresh: true, conflict: false },
    postedWith("with the API key key_5e1f0a3b9c2d4e6f")
  )
}

/** A failure report as a receiver mails it (RFC 6591): the feedback part and the original's headers. */
const FAILURE_PARTS = {
  feedback: [
    "Feedback-Type: auth-failure",
    "User-Agent: ExampleReporter/1.0",
    "Version: 1",
    "Original-Mail-From: <billing@example.com>",
    "Arrival-Date: Mon, 30 Nov 2026 14:03:11 +0000",
    "Source-IP: 203.0.113.99",
    "Reported-Domain: example.com",
    "Authentication-Results: mail.example.org; dmarc=fail (p=reject) header.from=example.com; spf=fail smtp.mailfrom=billing@example.com; dkim=none",
    "Auth-Failure: dmarc",
    "Identity-Alignment: none",
    "Delivery-Result: reject"
  ].join("\n"),
  original: [
    "Received: from mailer.example.net (mailer.example.net [203.0.113.99]) by mx.mail.example.org with ESMTP id 4f2a; Mon, 30 Nov 2026 14:03:11 +0000",
    "From: Billing <billing@example.com>",
    "Subject: Your invoice",
    "Authentication-Results: mx.mail.example.org; spf=fail smtp.mailfrom=billing@example.com; dkim=none"
  ].join("\n"),
  text: undefined
}

/** The example failure report, read as the service reads one. */
const failureReport = () =>
  Either.getOrThrowWith(
    readFailureReport(FAILURE_PARTS, false),
    (why) => new Error(`the example failure report is refused: ${why.message}`)
  )

const failureIngested = (): FailureIngestResult => {
  const r = failureReport()
  return {
    domain: r.domain,
    reporter: "mail.example.org",
    format: r.format,
    sourceIp: r.sourceIp,
    arrival: new Date((r.arrival ?? 0) * 1000).toISOString(),
    failures: r.failures,
    duplicate: false,
    bodyKept: false,
    ...postedWith("with the API key key_5e1f0a3b9c2d4e6f"),
    warnings: []
  }
}

/** The failure summary of that report and two more from the same source, as GET /api/reports/failure/{domain} answers it. */
const failureSummary = () => {
  const r = failureReport()
  const row = {
    reporter: "mail.example.org",
    arrival_at: r.arrival ?? 0,
    source_ip: r.sourceIp,
    failures: r.failures.join(","),
    dkim_domain: r.dkimDomain,
    dkim_selector: r.dkimSelector,
    mail_from_domain: r.mailFromDomain,
    authenticated: 1
  }
  return summariseFailures({
    domain: DOMAIN,
    ...period,
    rows: [
      row,
      { ...row, arrival_at: row.arrival_at - 7_200 },
      { ...row, arrival_at: row.arrival_at - 86_400 }
    ]
  })
}

/** What the look-ups say of each source: the MX by its PTR, a provider by its SPF include. */
const SOURCES: Readonly<Record<string, { ptr: string | null; provider: string | null }>> = {
  "192.0.2.25": { ptr: MX_HOST, provider: null },
  "198.51.100.7": { ptr: "out-7.mail.example.net", provider: "mail.example.net" }
}

/** The summaries' default period: the 30 days before now (the example scan's time). */
const period = { from: NOW.getTime() / 1000 - 30 * 86_400, to: NOW.getTime() / 1000 }

/** The DMARC summary of the example report, as GET /api/reports/dmarc/{domain} answers it. */
const dmarcSummary = () => {
  const { head, rows } = storable(parsed("dmarc"))
  const groups: Array<SourceGroup> =
    rows.kind === "dmarc" ? rows.rows.map(({ count, ...g }) => ({ ...g, messages: count })) : []
  return summariseDmarc({
    domain: DOMAIN,
    ...period,
    groups,
    reporters: [{ reporter: head.reporter, reports: 1, messages: head.messages }],
    reports: [
      {
        reporter: head.reporter,
        begin_at: head.begin,
        end_at: head.end,
        messages: head.messages,
        dmarc_pass: head.dmarcPass ?? 0,
        policy: head.policy,
        warnings: JSON.stringify(head.warnings ?? [])
      }
    ],
    facts: (ip) => ({
      ptr: SOURCES[ip]?.ptr ?? null,
      provider: SOURCES[ip]?.provider ?? null,
      providerFrom: SOURCES[ip]?.provider ? "spf-include" : SOURCES[ip]?.ptr ? "ptr" : null,
      knownForwarder: false
    })
  })
}

/** The TLS summary of the example report, as GET /api/reports/tls/{domain} answers it. */
const tlsSummary = () => {
  const { head, rows } = storable(parsed("tls"))
  return summariseTls({
    domain: DOMAIN,
    ...period,
    policies: rows.kind === "tls" ? rows.rows : [],
    reporters: [{ reporter: head.reporter, reports: 1, messages: head.messages }]
  })
}

/** Both summaries of the example domain: what its Everything Report carries as reports received. */
export const exampleSummaries = () => ({ dmarc: dmarcSummary(), tls: tlsSummary() })

export const inboundExamples: Readonly<Record<string, Example>> = {
  "reports.postDmarc": {
    request: "a day's aggregate report from mail.example.org (application/xml)",
    answer: () => ingested("dmarc")
  },
  "reports.postTls": {
    request: "a day's TLS report from mail.example.org (application/tlsrpt+json)",
    answer: () => ingested("tls")
  },
  "reports.dmarcSummary": {
    request: "example.com over the 30 days before 2026-12-01T09:00Z",
    answer: dmarcSummary
  },
  "reports.tlsSummary": {
    request: "example.com over the 30 days before 2026-12-01T09:00Z",
    answer: tlsSummary
  },
  "reports.postFailure": {
    request: "a failure report from mail.example.org (message/rfc822)",
    answer: failureIngested
  },
  "reports.failureSummary": {
    request: "example.com over the 30 days before 2026-12-01T09:00Z",
    answer: failureSummary
  }
}
