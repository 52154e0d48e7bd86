/**
 * The analyst's part of "Reports received" where a domain owner looks: the report page (English and
 * Dutch), the markdown and the PDF show mail by header-from domain, the daily series, the identities
 * that failed per source, the policy as receivers saw it, the report quality (repairs, conflicts,
 * unclassified sources), TLS failures as senders described them and self-contradicting TLS reports;
 * "not known" says whether no message was counted or look-ups failed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import { type SourceFacts, summariseDmarc } from "../../src/inbound/DmarcSummary.ts"
import { summariseTls } from "../../src/inbound/TlsSummary.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { receivedOf, receivedPeriod } from "../../src/report/ReceivedReports.ts"
import { snapshotPdf } from "../../src/report/ScanPdf.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import type { DmarcReportRow, SourceGroup } from "../../src/store/InboundReports.ts"
import { pdfText } from "./pdfText.ts"
import { domain as toDomain } from "../support/domain.ts"

const [generated] = FastCheck.sample(scanResult({ gradable: true }), { numRuns: 1, seed: 7 })
const scan: ScanResult = {
  ...generated!,
  domain: toDomain("example.org"),
  computedAt: "2026-11-25T12:00:00.000Z"
}
const BASE = "https://audit.example/api"
const period = receivedPeriod(scan.computedAt)
const DAY = 86_400
const day1 = Math.floor(period.to / DAY) * DAY - 2 * DAY

const group = (g: Partial<SourceGroup> & { source_ip: string; messages: number }): SourceGroup => ({
  disposition: "none",
  dkim: "pass",
  spf: "pass",
  overrides: "",
  arc: 0,
  dkim_auth: "",
  spf_auth: "",
  header_from: "example.org",
  envelope_from: "example.org",
  reasons: "",
  ...g
})
const esp: SourceFacts = {
  ptr: "out.esp.example",
  provider: "ESP",
  providerFrom: "spf-include",
  knownForwarder: false
}
const unknown: SourceFacts = { ptr: null, provider: null, providerFrom: null, knownForwarder: false }
const reportRow = (r: Partial<DmarcReportRow>): DmarcReportRow => ({
  reporter: "Receiver One",
  begin_at: day1,
  end_at: day1 + DAY - 1,
  messages: 0,
  dmarc_pass: 0,
  policy: JSON.stringify({ p: "none", sp: null, pct: 100, np: null, testing: null, errors: [] }),
  warnings: "[]",
  ...r
})

const dmarc = summariseDmarc({
  domain: "example.org",
  ...period,
  groups: [
    group({ source_ip: "192.0.2.2", messages: 900 }),
    group({ source_ip: "192.0.2.2", messages: 40, header_from: "news.example.org" }),
    group({
      source_ip: "192.0.2.1",
      messages: 60,
      dkim: "fail",
      spf: "fail",
      envelope_from: "bounce.esp.example",
      dkim_auth: "example.org/oldsel=fail",
      spf_auth: "bounce.esp.example=pass"
    })
  ],
  reporters: [{ reporter: "Receiver One", reports: 2, messages: 1000 }],
  facts: (ip) => (ip === "192.0.2.1" ? esp : unknown),
  conflicts: [{ reporter: "Receiver One", report_id: "r-9", versions: 2 }],
  reports: [
    reportRow({ messages: 700, dmarc_pass: 660 }),
    reportRow({
      reporter: "Receiver Two",
      begin_at: day1 + DAY,
      end_at: day1 + 2 * DAY - 1,
      messages: 300,
      dmarc_pass: 280,
      policy: JSON.stringify({ p: "reject", sp: null, pct: null, np: "reject", testing: "y", errors: [] }),
      warnings: JSON.stringify(["org_name empty: used the report's e-mail domain (two.example)"])
    })
  ]
})

const tls = summariseTls({
  domain: "example.org",
  ...period,
  reporters: [{ reporter: "Sender MTA", reports: 1, messages: 100 }],
  conflicts: [],
  policies: [
    {
      policy_type: "sts",
      policy_domain: "example.org",
      mx_hosts: JSON.stringify(["mx.example.org"]),
      successful: 95,
      failed: 5,
      reporter: "Sender MTA",
      report_id: "tls-7",
      failures: JSON.stringify([
        {
          type: "validation-failure",
          mx: "mx.example.org",
          count: 8,
          reason: "hostname-mismatch",
          sendingIp: "203.0.113.9",
          receivingIp: "198.51.100.25",
          helo: "mx1.example.org"
        }
      ])
    }
  ]
})

const report = everythingOf(scan, BASE, receivedOf(scan, BASE, { dmarc, tls }))
const dates = [day1, day1 + DAY].map((d) => new Date(d * 1000).toISOString().slice(0, 10))

/** A report whose only failing source could not be classified: a look-up failed. */
const lookupsFailed = everythingOf(
  scan,
  BASE,
  receivedOf(scan, BASE, {
    dmarc: summariseDmarc({
      domain: "example.org",
      ...period,
      groups: [group({ source_ip: "203.0.113.4", messages: 7, dkim: "fail", spf: "fail" })],
      reporters: [{ reporter: "Receiver One", reports: 1, messages: 7 }],
      facts: () => ({ ...unknown, lookupFailed: "its PTR look-up failed" })
    }),
    tls
  })
)

describe("the analyst's part on the report page", () => {
  it("shows header-from domains, days, failing identities, the policy seen and the report quality", () => {
    const page = reportPage(report, "en").markup
    expect(page).toContain("<caption>Mail by header-from domain</caption>")
    expect(page).toContain("news.example.org")
    expect(page).toContain("<caption>Day by day (UTC)</caption>")
    for (const d of dates) expect(page).toContain(`<time datetime="${d}">${d}</time>`)
    expect(page).toContain("<caption>Identities that failed, per source</caption>")
    expect(page).toMatch(/192\.0\.2\.1<\/span><\/td>\s*<td data-label="Method">DKIM<\/td>/)
    expect(page).toContain("oldsel")
    expect(page).toContain("<caption>Policy as receivers saw it published</caption>")
    expect(page).toContain("Receivers disagree")
    expect(page).toContain(
      "1 report needed a repair to be read; 1 report identity arrived with differing contents (kept and counted: a forgery or a corrected re-send); 0 sources whose mail fails DMARC could not be classified"
    )
    expect(page).toContain("<caption>Failures as senders described them</caption>")
    expect(page).toContain("hostname-mismatch")
    expect(page).toContain("mx1.example.org")
    expect(page).toContain("203.0.113.9")
    expect(page).toContain(
      "Not to be taken at its word: report tls-7 from Sender MTA details 8 failed sessions, more than the 5 it counts in all"
    )
  })

  it("says 'not known' apart: reports received but look-ups failed, naming the sources", () => {
    const page = reportPage(lookupsFailed, "en").markup
    expect(page).toContain(
      "Not known: reports were received, but 1 source whose mail fails DMARC could not be classified"
    )
    expect(page).not.toContain("no report counted any message")
    expect(page).toContain("<caption>Sources that could not be classified</caption>")
    expect(page).toContain("its PTR look-up failed")
    expect(renderMarkdown(lookupsFailed)).toContain("**Not known:** reports were received, but 1 source(s)")
  })

  it("speaks Dutch on a Dutch page", () => {
    const page = reportPage(report, "nl").markup
    for (const label of [
      "Mail per afzenderdomein (Header From)",
      "Per dag (UTC)",
      "Mislukte identiteiten per bron",
      "Beleid zoals ontvangers het gepubliceerd zagen",
      "Mislukkingen zoals verzenders ze beschreven",
      "Kwaliteit van de rapporten",
      "Ontvangers zijn het oneens"
    ])
      expect(page).toContain(label)
    expect(page).not.toContain("Day by day")
    expect(reportPage(lookupsFailed, "nl").markup).toContain("Onbekend: er kwamen rapporten binnen")
  })
})

describe("the analyst's part in the markdown and the PDF", () => {
  it("carries the same tables and lines", async () => {
    const md = renderMarkdown(report)
    expect(md).toContain("| news.example.org | 40 | 40 | 0 |")
    expect(md).toContain(`| ${dates[1]} | 300 | 280 | 20 |`)
    expect(md).toContain("| 192.0.2.1 | DKIM | example.org | oldsel | fail | 60 |")
    expect(md).toContain("| reject |  |  | reject | y | 1 | Receiver Two |")
    expect(md).toContain("Report quality: 1 report(s) needed a repair to be read; 1 report identity(ies)")
    expect(md).toContain(
      "| validation-failure | hostname-mismatch | 203.0.113.9 | mx.example.org | mx1.example.org | 198.51.100.25 | 8 |"
    )
    const pdf = (
      await pdfText(
        await Effect.runPromise(
          snapshotPdf({
            ...report,
            evidence: { ...report.evidence, snapshotId: "s-analyst", contentHash: "0".repeat(64) }
          })
        )
      )
    ).replace(/\s+/g, " ")
    expect(pdf).toContain("Report quality: 1 report(s) needed a repair")
    expect(pdf).toMatch(/news\.example\.org 40 40 0/)
    expect(pdf).toContain(`${dates[1]} 300 280 20`)
    expect(pdf).toMatch(/192\.0\.2\.1 DKIM example\.org oldsel fail 60/)
    expect(pdf).toContain("Policy as receivers saw it published: receivers disagree")
    expect(pdf).toContain("hostname-mismatch")
    expect(pdf).toContain("Not to be taken at its word: report tls-7 from Sender MTA")
  })
})
