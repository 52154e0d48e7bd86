/**
 * The PDF and the markdown report in Dutch (`lang=nl`): their headings, labels, grade word, finding
 * titles and guidance are Dutch, read back from the PDF's text; in English they are as before.
 */
import { describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { catalogue, type IssueId } from "../../src/score/Catalogue.ts"
import { guidanceOf } from "../../src/score/Guidance.ts"
import { scored } from "../../src/score/Rules.ts"
import { scoreRecords } from "../../src/score/Score.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"
import { pdfText } from "./pdfText.ts"
import { domain as toDomain } from "../support/domain.ts"

const record = (i: number, category: (typeof Categories)[number], points: number, issues: Array<IssueId>) =>
  scored(
    {
      id: `check.${i}`,
      title: `Check ${i}`,
      titleNl: `Controle ${i}`,
      category,
      maxPoints: 5,
      level: "required",
      rule: "",
      rank: i
    },
    { status: points === 5 ? "pass" : "fail", points, detail: `detail of check ${i}`, issues }
  )

const DOMAIN = toDomain("spf-passall.com")
const flawed = scoreRecords(
  [
    record(1, "email", 0, ["spf_plus_all"]),
    record(2, "email", 2, ["dmarc_policy_none"]),
    record(3, "security", 0, ["hsts_missing"]),
    record(4, "dns", 5, [])
  ],
  { domain: DOMAIN, timestamp: "2026-03-04T05:06:07.000Z", cached: false }
)

/** White space folded, and the typographic quotes the PDF may draw as ASCII. */
const folded = (s: string) => s.replace(/\s+/g, " ").replace(/[\u2018\u2019]/g, "'")

describe("the PDF in Dutch", () => {
  it("reads back with Dutch headings, labels, titles and guidance, and no English advice", async () => {
    const nl = folded(await pdfText(await renderPdf({ score: flawed, nis2: null, lang: "nl" })))
    const en = folded(await pdfText(await renderPdf({ score: flawed, nis2: null })))
    for (const heading of [
      "Beveiligingsrapport van een domein",
      "Categorieën",
      "NIS2-gereedheid",
      "Controles"
    ])
      expect(nl).toContain(heading)
    expect(nl).toMatch(/Wat te verbeteren \(\d+\)/)
    expect(nl).toContain("Waarom het ertoe doet")
    expect(en).toMatch(/What to fix \(\d+\)/)
    for (const id of ["spf_plus_all", "dmarc_policy_none", "hsts_missing"] as const) {
      const dutch = guidanceOf(id, DOMAIN, "nl")!
      const english = guidanceOf(id, DOMAIN, "en")!
      expect(nl).toContain(folded(catalogue[id]!.nl.title))
      // one sentence of the advice, as a reader copies it out of the PDF
      expect(nl).toContain(folded(dutch.why).slice(0, 60))
      expect(nl).not.toContain(folded(english.why).slice(0, 60))
      expect(en).toContain(folded(english.why).slice(0, 60))
    }
    expect(nl).not.toMatch(/What to fix|Why it matters|Categories/)
  })
})

describe("the markdown in Dutch", () => {
  it.each(FIXTURES)("%s: Dutch headings, statuses, titles and guidance; English unchanged", (domain) => {
    const report = everythingOf(storedScan(domain), "https://audit.example/api")
    const nl = renderMarkdown(report, "nl")
    expect(renderMarkdown(report, "en")).toBe(renderMarkdown(report))
    expect(nl).toContain(`# Volledig rapport: ${domain}`)
    expect(nl).toContain("## Samenvatting")
    expect(nl).toContain("## NIS2-gereedheid")
    expect(nl).toMatch(/Cijfer \*\*/)
    expect(nl).not.toMatch(/Why it matters|What to fix|## Summary/)
    const ids = new Set(
      Object.values(report.sections).flatMap((section) =>
        "findings" in section && Array.isArray(section.findings)
          ? section.findings.map((f) => f.issueId).filter((id) => Object.hasOwn(catalogue, id))
          : []
      )
    )
    for (const id of ids) {
      const dutch = guidanceOf(id, domain, "nl")!
      expect(nl).toContain(catalogue[id]!.nl.title.replace(/\|/g, "\\|"))
      expect(nl).toContain(`Waarom het ertoe doet: ${dutch.why.replace(/\|/g, "\\|")}`)
      expect(nl).not.toContain(guidanceOf(id, domain, "en")!.why)
    }
  })
})
