/**
 * The failure reports of the period, counted where a reader of the report looks: the JSON's
 * `reportsReceived.failureReports`, the page's received-reports section (English and Dutch), and
 * the markdown whose lines the PDF prints.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { summariseDmarc } from "../../src/inbound/DmarcSummary.ts"
import { summariseTls } from "../../src/inbound/TlsSummary.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { receivedOf, receivedPeriod } from "../../src/report/ReceivedReports.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { domain as toDomain } from "../support/domain.ts"

const [generated] = FastCheck.sample(scanResult({ gradable: true }), { numRuns: 1, seed: 11 })
const scan: ScanResult = {
  ...generated!,
  domain: toDomain("example.org"),
  computedAt: "2026-11-25T12:00:00.000Z"
}
const BASE = "https://audit.example/api"
const period = receivedPeriod(scan.computedAt)
const summaries = {
  dmarc: summariseDmarc({
    domain: "example.org",
    ...period,
    groups: [],
    reporters: [],
    facts: () => ({ ptr: null, provider: null, providerFrom: null, knownForwarder: false })
  }),
  tls: summariseTls({ domain: "example.org", ...period, policies: [], reporters: [] })
}

describe("failure reports in the report", () => {
  const received = receivedOf(scan, BASE, { ...summaries, failures: 4 })
  const report = everythingOf(scan, BASE, received)

  it("are counted in reportsReceived, and absent when not counted (reports made before)", () => {
    expect(received.failureReports).toBe(4)
    expect("failureReports" in receivedOf(scan, BASE, summaries)).toBe(false)
  })

  it("are shown on the page, in English and Dutch, with a link to their summary", () => {
    const en = reportPage(report, "en").markup
    expect(en).toContain("DMARC failure reports in this period: 4.")
    expect(en).toContain("/api/reports/failure/example.org?from=")
    expect(reportPage(report, "nl").markup).toContain("DMARC-foutrapporten in deze periode: 4.")
  })

  it("are in the markdown, whose lines the PDF prints", () => {
    expect(renderMarkdown(report)).toContain(
      "DMARC failure reports (RFC 7489 7.3) in the period: 4 (`GET /api/reports/failure/example.org` summarises them)."
    )
  })
})
