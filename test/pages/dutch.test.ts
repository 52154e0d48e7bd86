/**
 * A Dutch report page says in Dutch what the page itself says about the report: the grade's word,
 * the headline, every section's and finding's name and what each fix regains. Each check declares
 * its section's and its issues' Dutch names; the headline is built from the same numbers as the
 * English one.
 */
import { describe, expect, it } from "vitest"
import { headline, sectionTitle } from "../../src/pages/ReportWords.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { concerns } from "../../src/report/Sections.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"

const BASE = "https://audit.example/api"

/** The page's text, markup removed and white space folded. */
const text = (page: string) =>
  page
    .replace(/<[^>]*>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")

describe("a Dutch report page", () => {
  it("every section has a Dutch name", () => {
    for (const c of concerns) expect(c.titleNl.trim(), c.key).not.toBe("")
  })

  it.each(FIXTURES)("%s: names the grade, the sections and the fixes in Dutch", (domain) => {
    const report = everythingOf(storedScan(domain), BASE)
    const markup = reportPage(report, "nl").markup
    const nl = text(markup)
    expect(text(reportPage(report, "en").markup)).toContain(report.summary.headline)
    expect(nl).toContain(headline(report, "nl"))
    expect(headline(report, "nl")).toMatch(new RegExp(`^${domain} scoort \\d+/100, cijfer `))
    expect(nl).not.toContain(`(${report.summary.label})`)
    // Each section's heading and its row in the summary table carry its Dutch name.
    for (const row of report.summary.sections) {
      if (row.key === "nis2" || row.key === "quickScore") continue
      const dutch = sectionTitle(row.key, row.title, "nl")
      expect(markup).toContain(`<h3 id="h-${row.key}">${dutch.replace(/'/g, "&#39;")}</h3>`)
      expect(markup).toContain(`<a href="#sec-${row.key}">${dutch.replace(/'/g, "&#39;")}</a>`)
    }
    // Each finding's card carries the Dutch title its check declares with the issue.
    const findings = Object.values(report.sections).flatMap((section) =>
      "findings" in section && Array.isArray(section.findings) ? section.findings : []
    )
    for (const f of findings) {
      const dutch = catalogue[f.issueId]!.nl.title.replace(/'/g, "&#39;")
      expect(markup).toContain(`<h3>${dutch}</h3>`)
    }
    expect(nl).not.toMatch(/regains \d+ points?/)
    if (report.sections.quickScore.recommendations.some((r) => r.points > 0))
      expect(nl).toMatch(/levert \d+ punt(en)? op/)
  })
})
