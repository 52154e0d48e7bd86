/**
 * Every check's title in Dutch: each rule of the registry declares one beside its English title, and
 * the Dutch page, markdown and PDF name every check of a report by it (the English ones as before).
 */
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import { recordTitle } from "../../src/report/ReportText.ts"
import { checkSections } from "../../src/report/ReportSchema.ts"
import { specsOf } from "../../src/score/Rules.ts"
import { score } from "../../src/score/Score.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"
import { pdfText } from "./pdfText.ts"

const specs = specsOf(registry)

/** A title that is a name (an acronym, a header, a file): every word after the first capitalised. */
const isName = (title: string) => !/\s[a-z]/.test(title)

const recordsOf = (report: ReturnType<typeof everythingOf>) =>
  [...checkSections(report.sections).values()].flatMap((s) => s.records)

describe("check titles in Dutch", () => {
  it("every rule of the registry declares a Dutch title, translated unless the title is a name", () => {
    expect(specs.length).toBeGreaterThan(40)
    for (const spec of specs) {
      expect(spec.titleNl.trim(), spec.id).not.toBe("")
      expect(spec.titleNl, spec.id).not.toMatch(/\.$/)
      if (!isName(spec.title)) expect(spec.titleNl, spec.id).not.toBe(spec.title)
      expect(recordTitle(spec.id, spec.title, "nl")).toBe(spec.titleNl)
      expect(recordTitle(spec.id, spec.title, "en")).toBe(spec.title)
    }
  })

  it.each(FIXTURES)("%s: the Dutch page and markdown name every check in Dutch", (domain) => {
    const report = everythingOf(storedScan(domain), "https://audit.example/api")
    const records = recordsOf(report)
    expect(records.length).toBeGreaterThan(0)
    const markdown = { nl: renderMarkdown(report, "nl"), en: renderMarkdown(report, "en") }
    const page = { nl: reportPage(report, "nl").markup, en: reportPage(report, "en").markup }
    const cell = (label: string, title: string) =>
      `<td data-label="${label}">${title.replace(/&/g, "&amp;")}</td>`
    for (const r of records) {
      const dutch = specs.find((s) => s.id === r.id)!.titleNl
      expect(markdown.nl, r.id).toContain(`| ${dutch} |`)
      expect(markdown.en, r.id).toContain(`| ${r.title} |`)
      expect(page.nl, r.id).toContain(cell("Controle", dutch))
      expect(page.en, r.id).toContain(cell("Check", r.title))
      if (!isName(r.title)) {
        expect(markdown.nl, r.id).not.toContain(`| ${r.title} |`)
        expect(page.nl, r.id).not.toContain(cell("Controle", r.title))
      }
    }
  })

  it("the Dutch PDF names the checks in Dutch", async () => {
    const scored = score(storedScan("dmarc-none.com"))
    const text = (await pdfText(await renderPdf({ score: scored, nis2: null, lang: "nl" }))).replace(
      /\s+/g,
      " "
    )
    const records = Object.values(scored.categories).flatMap((c) => c.checks)
    const translated = records.filter((r) => !isName(r.title))
    expect(translated.length).toBeGreaterThan(5)
    // each check's row: its category, then its Dutch title (the English one stays only in a detail)
    for (const r of translated) {
      const category = Object.entries(scored.categories).find(([, c]) => c.checks.includes(r))![0]
      expect(text, r.id).toContain(`${category} ${specs.find((s) => s.id === r.id)!.titleNl} `)
      expect(text, r.id).not.toContain(`${category} ${r.title} `)
    }
  })
})
