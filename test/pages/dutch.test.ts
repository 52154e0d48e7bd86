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
import { guidanceOf } from "../../src/score/Guidance.ts"
import { concerns } from "../../src/report/Sections.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"

const BASE = "https://audit.example/api"

/** The page's text, markup removed and white space folded. */
const text = (page: string) =>
  page
    .replace(/<[^>]*>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")

/** How many findings the guidance test below read in Dutch, over every fixture. */
let guided = 0

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

  it.each(FIXTURES)(
    "%s: gives every catalogue finding's guidance in Dutch, and no English advice",
    (domain) => {
      const report = everythingOf(storedScan(domain), BASE)
      const decoded = (page: string) =>
        text(page)
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&")
      const nl = decoded(reportPage(report, "nl").markup)
      const en = decoded(reportPage(report, "en").markup)
      const ids = new Set(
        Object.values(report.sections).flatMap((section) =>
          "findings" in section && Array.isArray(section.findings)
            ? section.findings.map((f) => f.issueId).filter((id) => Object.hasOwn(catalogue, id))
            : []
        )
      )
      guided += ids.size
      const folded = (s: string) => s.replace(/\s+/g, " ")
      for (const id of ids) {
        const dutch = guidanceOf(id, domain, "nl")!
        const english = guidanceOf(id, domain, "en")!
        for (const line of [dutch.why, ...dutch.steps]) expect(nl, id).toContain(folded(line))
        for (const line of [english.why, ...english.steps]) expect(nl, id).not.toContain(folded(line))
        expect(en, id).toContain(folded(english.why))
      }
      if (ids.size > 0) expect(nl).toContain("Waarom het ertoe doet")
      expect(nl).not.toMatch(/adviezen bij de bevindingen/)
    }
  )

  it("read the guidance of some findings in Dutch (the fixtures have findings)", () => {
    expect(guided).toBeGreaterThan(0)
  })
})
