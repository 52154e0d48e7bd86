/**
 * "Reports received" in the Everything Report: the essentials of the DMARC and TLS summaries
 * (ReceivedReports.ts), the report with and without them (content, hash, decoding of a report
 * stored without them), and the same section on the report page (English and Dutch) and in the
 * markdown.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { type SourceFacts, summariseDmarc } from "../../src/inbound/DmarcSummary.ts"
import { summariseTls } from "../../src/inbound/TlsSummary.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { snapshotPage } from "../../src/pages/SnapshotPage.ts"
import { contentHashOf } from "../../src/report/Canonical.ts"
import { encodeContent, everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { receivedOf, receivedPeriod, type ReportsReceived } from "../../src/report/ReceivedReports.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import { snapshotPdf } from "../../src/report/ScanPdf.ts"
import { Effect } from "effect"
import { pdfText } from "./pdfText.ts"
import type { SourceGroup } from "../../src/store/InboundReports.ts"

const [generated] = FastCheck.sample(scanResult({ gradable: true }), { numRuns: 1, seed: 7 })
/** A scan of example.org whose DMARC and TLS-RPT records name where reports go. */
const scan = ((): ScanResult => {
  const s = generated!
  const dmarc = s.checks.dmarc
  const mtaSts = s.checks["mta-sts"]
  return {
    ...s,
    domain: "example.org",
    computedAt: "2026-11-25T12:00:00.000Z",
    checks: {
      ...s.checks,
      dmarc: {
        ...dmarc,
        result: dmarc.result && {
          ...dmarc.result,
          rua: ["mailto:dmarc@example.org"],
          effectivePolicy: "none"
        }
      },
      "mta-sts": {
        ...mtaSts,
        result: mtaSts.result && {
          ...mtaSts.result,
          tlsRpt: { ...mtaSts.result.tlsRpt, rua: ["mailto:tls@example.org"] }
        }
      }
    }
  } as ScanResult
})()

const BASE = "https://audit.example/api"
const period = receivedPeriod(scan.computedAt)

const group = (g: Partial<SourceGroup> & { source_ip: string; messages: number }): SourceGroup => ({
  disposition: "none",
  dkim: "pass",
  spf: "pass",
  overrides: "",
  arc: 0,
  dkim_auth: "",
  spf_auth: "",
  ...g
})

const unknown: SourceFacts = { ptr: null, provider: null, providerFrom: null, knownForwarder: false }
const facts = (ip: string): SourceFacts =>
  ip === "192.0.2.1"
    ? { ptr: "mail.esp.example", provider: "ESP", providerFrom: "spf-include", knownForwarder: false }
    : ip === "192.0.2.2"
      ? { ptr: "mx.example.org", provider: null, providerFrom: null, knownForwarder: false }
      : unknown

/** Twelve sources: the domain's own server, an ESP in its SPF that fails, spoofers. */
const groups = [
  group({ source_ip: "192.0.2.2", messages: 900 }),
  group({ source_ip: "192.0.2.1", messages: 80, dkim: "fail", spf: "fail" }),
  ...Array.from({ length: 10 }, (_, i) =>
    group({ source_ip: `203.0.113.${i + 1}`, messages: 2, dkim: "fail", spf: "fail" })
  )
]

const dmarcSummary = (rows: ReadonlyArray<SourceGroup>) =>
  summariseDmarc({
    domain: "example.org",
    ...period,
    groups: rows,
    reporters: rows.length === 0 ? [] : [{ reporter: "Receiver <One>", reports: 2, messages: 1000 }],
    facts
  })

const tlsSummary = (withReports: boolean) =>
  summariseTls({
    domain: "example.org",
    ...period,
    policies: withReports
      ? [
          {
            policy_type: "sts",
            policy_domain: "example.org",
            mx_hosts: JSON.stringify(["mx.example.org"]),
            successful: 95,
            failed: 5,
            failures: JSON.stringify([{ type: "certificate-expired", mx: "mx.example.org", count: 5 }])
          }
        ]
      : [],
    reporters: withReports ? [{ reporter: "Sender MTA", reports: 1, messages: 100 }] : []
  })

const received: ReportsReceived = receivedOf(scan, BASE, {
  dmarc: dmarcSummary(groups),
  tls: tlsSummary(true)
})
const none: ReportsReceived = receivedOf(scan, BASE, { dmarc: dmarcSummary([]), tls: tlsSummary(false) })

describe("the essentials of the summaries", () => {
  it("keep the period, totals, the ten busiest sources and the blockers", () => {
    expect(received.from).toBe("2026-10-26T12:00:00.000Z")
    expect(received.to).toBe("2026-11-25T12:00:00.000Z")
    const dmarc = received.dmarc!
    expect(dmarc).toMatchObject({
      reports: 2,
      messages: 1000,
      dmarcPass: 900,
      passRate: 0.9,
      sourcesTotal: 12
    })
    expect(dmarc.topSources).toHaveLength(10)
    expect(dmarc.topSources[0]).toEqual({
      ip: "192.0.2.2",
      ptr: "mx.example.org",
      provider: null,
      messages: 900,
      dmarcPass: 900,
      forwarder: false,
      failingIdentities: []
    })
    // the ESP in the SPF record fails DMARC: p=reject would lose its mail; the spoofers are no blockers
    expect(dmarc.readyForReject).toMatchObject({ verdict: "not-ready", blockersTotal: 1 })
    expect(dmarc.readyForReject.blockers).toEqual([
      expect.objectContaining({ ip: "192.0.2.1", provider: "ESP", messages: 80 })
    ])
    expect(dmarc.reporters).toEqual(["Receiver <One>"])
    expect(received.tls).toMatchObject({
      reports: 1,
      sessions: { successful: 95, failed: 5 },
      successRate: 0.95,
      failuresByResultType: [{ resultType: "certificate-expired", sessions: 5 }],
      failuresByMx: [{ mx: "mx.example.org", sessions: 5 }],
      byPolicy: [{ policyType: "sts", policyDomain: "example.org", successful: 95, failed: 5 }]
    })
    expect(received.summaryUrls.dmarc).toBe(
      `${BASE}/reports/dmarc/example.org?from=2026-10-26T12%3A00%3A00.000Z&to=2026-11-25T12%3A00%3A00.000Z`
    )
  })

  it("are null without reports, and say where the domain asks for them", () => {
    expect(none.dmarc).toBeNull()
    expect(none.tls).toBeNull()
    expect(none.rua.dmarc).toEqual(scan.checks.dmarc.result === null ? [] : ["mailto:dmarc@example.org"])
  })
})

describe("the report", () => {
  it("carries the reports received when given: part of the content and of its hash", () => {
    const without = everythingOf(scan, BASE)
    const withReports = everythingOf(scan, BASE, received)
    expect(without.reportsReceived).toBeUndefined()
    expect(withReports.reportsReceived).toEqual(received)
    expect(withReports.evidence.contentHash).not.toBe(without.evidence.contentHash)
    const { evidence: _e, ...content } = withReports
    expect(withReports.evidence.contentHash).toBe(contentHashOf(encodeContent(content)))
    expect(everythingOf(scan, BASE, received).evidence.contentHash).toBe(withReports.evidence.contentHash)
  })

  it("stored without them (before reports carried them) still decodes, and shows no section", () => {
    const stored = JSON.parse(JSON.stringify(Schema.encodeSync(EverythingReport)(everythingOf(scan, BASE))))
    expect("reportsReceived" in stored).toBe(false)
    const decoded = Schema.decodeUnknownSync(EverythingReport)(stored)
    expect(reportPage(decoded, "en").markup).not.toContain("Reports received")
    expect(renderMarkdown(decoded)).not.toContain("## Reports received")
    const roundTrip = Schema.decodeUnknownSync(EverythingReport)(
      JSON.parse(JSON.stringify(Schema.encodeSync(EverythingReport)(everythingOf(scan, BASE, received))))
    )
    expect(roundTrip.reportsReceived).toEqual(received)
  })
})

describe("the page's section", () => {
  const report = everythingOf(scan, BASE, received)

  it("says in plain words that p=reject would lose the ESP's mail, with the sources and TLS failures", () => {
    const page = reportPage(report, "en").markup
    expect(page).toContain(`<h2 id="received">Reports received</h2>`)
    expect(page).toContain("Not yet. 1 legitimate-looking source sends mail that fails DMARC")
    expect(page).toContain("192.0.2.1")
    expect(page).toContain("mx.example.org")
    expect(page).toContain("90.0%")
    expect(page).toContain("Receiver &lt;One&gt;")
    expect(page).toContain("certificate-expired")
    expect(page).toContain("The busiest 10 of 12 sources.")
    expect(page).toContain(`href="${received.summaryUrls.dmarc.replace(/&/g, "&amp;")}"`)
    // the snapshot page is the same page
    expect(snapshotPage(report, "en").markup).toContain("Not yet. 1 legitimate-looking source")
  })

  it("says the blockers' mail is refused now when the domain publishes p=reject already", () => {
    const atReject = everythingOf(scan, BASE, { ...received, dmarcPolicy: "reject" })
    expect(reportPage(atReject, "en").markup).toContain(
      "It publishes p=reject already, so receivers refuse this mail now: 1 legitimate-looking source sends mail"
    )
    expect(renderMarkdown(atReject)).toContain("Ready for p=reject? **It publishes p=reject already,**")
  })

  it("speaks Dutch on a Dutch page", () => {
    const page = reportPage(report, "nl").markup
    expect(page).toContain("Ontvangen rapporten")
    expect(page).toContain("Nog niet. 1 legitiem ogende bron verstuurt mail")
    expect(page).toContain("90,0%")
  })

  it("says ready when nothing legitimate fails", () => {
    const ready = receivedOf(scan, BASE, {
      dmarc: dmarcSummary(groups.filter((g) => g.source_ip !== "192.0.2.1")),
      tls: tlsSummary(false)
    })
    expect(ready.dmarc!.readyForReject.verdict).toBe("ready")
    expect(reportPage(everythingOf(scan, BASE, ready), "en").markup).toContain(
      "Yes. Every source whose mail failed DMARC in this period is unknown"
    )
  })

  it("without reports, says there are none and how to have them sent", () => {
    const page = reportPage(everythingOf(scan, BASE, none), "en").markup
    expect(page).toContain("No DMARC aggregate report for this period reached this service.")
    expect(page).toContain("No TLS report for this period reached this service.")
    expect(page).toContain("POST /api/reports/dmarc")
    const noRua = { ...none, rua: { dmarc: [], tls: [] } }
    const bare = reportPage(everythingOf(scan, BASE, noRua), "en").markup
    expect(bare).toContain("at _dmarc.example.org")
    expect(bare).toContain("at _smtp._tls.example.org")
    const asked = reportPage(
      everythingOf(scan, BASE, { ...none, rua: { dmarc: ["mailto:d@x.example"], tls: [] } }),
      "en"
    )
    expect(asked.markup).toContain("The domain asks for them at: <code>mailto:d@x.example</code>")
  })
})

describe("the markdown's section", () => {
  it("shows the same essentials", () => {
    const text = renderMarkdown(everythingOf(scan, BASE, received))
    expect(text).toContain("## Reports received")
    expect(text).toContain("2 report(s) from Receiver <One>: 1000 message(s), 900 passing DMARC (90.0%).")
    expect(text).toContain("Ready for p=reject? **Not yet.** 1 legitimate-looking source(s)")
    expect(text).toMatch(/\| 192\.0\.2\.1 \| mail\.esp\.example \| ESP \| 80 \| .*\|/)
    expect(text).toContain("| sts | example.org | 95 | 5 |")
    expect(text).toContain(`Full summary: ${received.summaryUrls.tls}`)
    // after the checks' sections, before NIS2
    expect(text.indexOf("## Reports received")).toBeLessThan(text.indexOf("## NIS2 readiness"))
  })

  it("without reports, says how to have them sent", () => {
    const text = renderMarkdown(everythingOf(scan, BASE, { ...none, rua: { dmarc: [], tls: [] } }))
    expect(text).toContain("No DMARC aggregate report for this period reached this service.")
    expect(text).toContain("`_dmarc.example.org`")
    expect(text).toContain("`POST /api/reports/tls`")
  })
})

/** A report's PDF as its snapshot's (the evidence's id and hash made up: they go in the footers). */
const snapshotPdfBytes = (report: ReturnType<typeof everythingOf>) =>
  Effect.runPromise(
    snapshotPdf({
      ...report,
      evidence: { ...report.evidence, snapshotId: `s-${Math.random()}`, contentHash: "0".repeat(64) }
    } as unknown as Parameters<typeof snapshotPdf>[0])
  )

describe("the PDF's section", () => {
  it("says what the markdown says, its tables as tables; and is absent without reports", async () => {
    const report = everythingOf(scan, BASE, received)
    const pdf = async (r: typeof report) => (await pdfText(await snapshotPdfBytes(r))).replace(/\s+/g, " ")
    const text = await pdf(report)
    expect(text).toContain("Reports received")
    expect(text).toContain("Ready for p=reject? Not yet. 1 legitimate-looking source(s)")
    expect(text).toContain("1000 message(s), 900 passing DMARC (90.0%)")
    expect(text).toMatch(/192\.0\.2\.1 mail\.esp\.example ESP 80/)
    expect(text).toContain("certificate-expired")
    expect(text).not.toContain("**")
    const { reportsReceived: _, ...without } = report
    expect(await pdf(without as typeof report)).not.toContain("Reports received")
  })
})
