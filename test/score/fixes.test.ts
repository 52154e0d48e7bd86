/**
 * The one list of what to fix: computed once by the score (score/Fixes.ts), shown by every
 * presentation in the same order and count. For generated scans, the API's `recommendations`, the
 * report page's cards, the markdown, the PDF, the CLI summary and an alert's fixes are the same list.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { scanSummary, SUMMARY_ISSUES } from "../../src/cli/ScanSummary.ts"
import { emailMessage, webhookBody } from "../../src/monitor/AlertMessage.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import { issueIds } from "../../src/score/Catalogue.ts"
import { fixOrder } from "../../src/score/Fixes.ts"
import { providersRequiring, requirementIssues } from "../../src/checks/sender/Depends.ts"
import { analyse } from "../../src/checks/sender/SenderRequirements.ts"
import { score } from "../../src/score/Score.ts"
import { pdfText } from "../report/pdfText.ts"

const BASE = "https://audit.example/api"
const scans = scanResult({ gradable: true })

/** The issue ids of the page's cards under "What to fix", in page order. */
const pageFixes = (page: string): ReadonlyArray<string> => {
  const list = /<ol class="fixes">([\s\S]*?)<\/ol>\s*<\/section>/.exec(page)?.[1] ?? ""
  return [...list.matchAll(/<article class="finding[^"]*" id="issue-([^"]+)"/g)].map((m) => m[1]!)
}

/** The titles of the markdown's "What to fix" list, in order. */
const markdownFixes = (markdown: string): ReadonlyArray<string> => {
  const lines = markdown.split("\n")
  const start = lines.findIndex((l) => l.startsWith("**What to fix**"))
  const out: Array<string> = []
  for (const line of lines.slice(start + 2)) {
    const m = /^1\. \*\*(.+?)\*\* \(/.exec(line)
    if (m === null) break
    out.push(m[1]!)
  }
  return out
}

describe("the list of what to fix", () => {
  it("is ordered by points regained, then severity, then id, and holds no information-only issue", () => {
    fc.assert(
      fc.property(scans, (scan) => {
        const s = score(scan)
        const fixes = s.recommendations
        expect([...fixes].sort(fixOrder)).toEqual(fixes)
        expect(new Set(fixes.map((f) => f.id)).size).toBe(fixes.length)
        const info = new Set(s.issues.filter((i) => i.severity === "info").map((i) => i.id))
        expect(fixes.map((f) => f.id).sort()).toEqual(
          s.issues
            .map((i) => i.id)
            .filter((id) => !info.has(id))
            .sort()
        )
      }),
      { numRuns: 40 }
    )
  }, 120_000)

  it("is the same list on the page, in the markdown, the CLI summary and an alert", () => {
    fc.assert(
      fc.property(scans, (scan) => {
        const s = score(scan)
        const ids = s.recommendations.map((r) => r.id)
        const report = everythingOf(scan, BASE)
        expect(report.sections.quickScore.recommendations.map((r) => r.id)).toEqual(ids)
        expect(pageFixes(reportPage(report, "en").markup)).toEqual(ids)
        expect(markdownFixes(renderMarkdown(report))).toEqual(s.recommendations.map((r) => r.title))
        // the summary table's quick-score row counts the same list
        expect(report.summary.sections.find((r) => r.key === "quickScore")?.findings).toBe(ids.length)
        const cli = scanSummary({ domain: scan.domain, scan, score: s }, s.unscannable)
        const cliIds = [...cli.matchAll(/^ +\d+\. +\S+ +(\S+) /gm)].map((m) => m[1]!)
        expect(cliIds).toEqual(ids.slice(0, SUMMARY_ISSUES))
        expect(cli).toContain(ids.length === 0 ? "to fix: nothing" : `to fix (${ids.length},`)
        const alert = {
          alertId: "msg_1",
          monitorId: "mon_1",
          domain: scan.domain,
          every: "PT1H",
          baseUrl: BASE,
          scannedAt: scan.computedAt,
          createdAt: scan.computedAt,
          grade: { before: null, after: s.grade },
          rules: [],
          changes: [],
          warnings: [],
          fixes: s.recommendations,
          lang: "en" as const
        }
        const hook = JSON.parse(webhookBody(alert)) as { data: { fixes: Array<{ id: string }> } }
        expect(hook.data.fixes.map((f) => f.id)).toEqual(ids)
        const mail = emailMessage(alert).text
        const mailTitles = [...mail.matchAll(/^\d+\. (.+) \((?:critical|high|medium|low), /gm)].map(
          (m) => m[1]
        )
        expect(mailTitles).toEqual(s.recommendations.map((r) => r.title.replace(/^Fix: /, "")))
      }),
      { numRuns: 25 }
    )
  }, 120_000)

  it("is the same list in the PDF", async () => {
    await fc.assert(
      fc.asyncProperty(scans, async (scan) => {
        const s = score(scan)
        const text = (await pdfText(await renderPdf({ score: s, nis2: null }))).replace(/\s+/g, " ")
        expect(text).toContain(`What to fix (${s.recommendations.length})`)
        // each fix's title, numbered in the list's order
        let from = 0
        s.recommendations.forEach((fix, i) => {
          const title = `${i + 1}. ${fix.title.replace(/^Fix: /, "")}`.replace(/\s+/g, " ")
          const at = text.indexOf(title, from)
          expect(at, title).toBeGreaterThanOrEqual(from)
          from = at + title.length
        })
      }),
      { numRuns: 4 }
    )
  }, 120_000)
})

describe("sender requirements", () => {
  it("depend only on catalogue issues", () => {
    for (const ids of Object.values(requirementIssues)) for (const id of ids) expect(issueIds).toContain(id)
  })

  it("name the providers that require a failing requirement's findings, and none that pass", () => {
    const ok = { status: "pass" as const, detail: "" }
    const result = analyse({
      domain: "example.com",
      spf: ok,
      dkim: ok,
      dmarc: { status: "missing", detail: "no DMARC record", policy: null },
      fcrdns: { status: "fail", detail: "no PTR" },
      tls: ok
    })
    const required = providersRequiring(result)
    expect(required.get("dmarc_missing")).toEqual(["google", "yahoo", "microsoft"])
    expect(required.get("ptr_missing")).toEqual(["google", "yahoo"])
    expect(required.has("spf_missing")).toBe(false)
    expect(providersRequiring({ ...result, overallStatus: "not-applicable" }).size).toBe(0)
  })
})
