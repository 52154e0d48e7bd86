/**
 * The grade statement and its caps in Dutch (pages, PDF, markdown), decided by the same facts as the
 * English the score carries; and the markdown's NIS2 table, evidence section and SPF lookup graph
 * in Dutch with `lang=nl`.
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import { reportStatement } from "../../src/report/ReportText.ts"
import { scoredRecords } from "../../src/score/Arbitraries.ts"
import { gradeFactsOf, gradeOf, gradeStatement, statementOf } from "../../src/score/Grade.ts"
import { MEASURE_TEXT } from "../../src/score/Nis2Text.ts"
import { percentOf } from "../../src/score/Model.ts"
import { specsOf } from "../../src/score/Rules.ts"
import { score } from "../../src/score/Score.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"
import { runs } from "../support/runs.ts"
import { pdfText } from "./pdfText.ts"

/** Words only the English statement uses. */
const ENGLISH = /\b(Capped|Fixing|lifts|applicable points|could not be verified|reported as|Not graded)\b/

const sum = (rs: ReadonlyArray<{ readonly points: number; readonly maxPoints: number }>) => ({
  points: rs.reduce((s, r) => s + r.points, 0),
  maxPoints: rs.reduce((s, r) => s + r.maxPoints, 0)
})

describe("the grade statement in Dutch", () => {
  it("says as many caps as the English, in Dutch sentences, for any records", () => {
    fc.assert(
      fc.property(scoredRecords, (rs) => {
        const facts = gradeFactsOf(rs, percentOf(sum(rs).points, sum(rs).maxPoints))
        const [en, nl] = [statementOf(facts, "en"), statementOf(facts, "nl")]
        // the English is the score's own
        expect(en).toEqual({
          description: gradeOf(rs, facts.percentage).description,
          caps: gradeOf(rs, facts.percentage).caps
        })
        expect(nl.caps).toHaveLength(en.caps.length)
        for (const sentence of [nl.description, ...nl.caps]) {
          expect(sentence).toMatch(/^[A-Z0-9].*\.$/s)
          expect(sentence).not.toMatch(ENGLISH)
        }
      }),
      { numRuns: runs(200) }
    )
  })

  it("names a failed critical check by its Dutch title and says what lifts the cap", () => {
    const spf = specsOf(registry).find((s) => s.id === "email.spf.valid")!
    const records = score(storedScan("perfect.com"))
    const all = Object.values(records.categories).flatMap((c) => c.checks)
    const failed = all.map((r) =>
      r.id === spf.id ? { ...r, status: "fail" as const, points: 0, detail: "no SPF record" } : r
    )
    const nl = gradeStatement(failed, sum(failed), null, "nl")
    expect(nl.caps).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Begrensd op B: de kritieke controle ${spf.titleNl} faalt \\(no SPF record\\)\\. Wie die herstelt, brengt het cijfer naar A\\+?\\.$`
        )
      )
    ])
    expect(gradeStatement(failed, sum(failed), "x.test does not exist (NXDOMAIN)", "nl")).toEqual({
      description: "Geen cijfer: x.test does not exist (NXDOMAIN).",
      caps: []
    })
  })

  it.each(FIXTURES)("%s: the report's statement in Dutch agrees with the score's English", (domain) => {
    const report = everythingOf(storedScan(domain), "https://audit.example/api")
    const en = reportStatement(report, "en")
    const nl = reportStatement(report, "nl")
    expect(nl.caps).toHaveLength(en.caps.length)
    expect(nl.description).not.toMatch(ENGLISH)
    expect(renderMarkdown(report, "nl")).toContain(nl.description)
  })

  it("is the PDF's statement in Dutch", async () => {
    const s = score(storedScan("dmarc-none.com"))
    const text = (await pdfText(await renderPdf({ score: s, nis2: null, lang: "nl" }))).replace(/\s+/g, " ")
    const nl = gradeStatement(
      Object.values(s.categories).flatMap((c) => c.checks),
      s,
      s.unscannable,
      "nl"
    )
    expect(text).toContain(nl.description)
    expect(text).not.toContain(s.gradeInfo.description)
  })
})

describe("the markdown's NIS2 table, evidence and SPF graph in Dutch", () => {
  it.each(FIXTURES)("%s", (domain) => {
    const report = everythingOf(storedScan(domain), "https://audit.example/api")
    const nl = renderMarkdown(report, "nl")
    const en = renderMarkdown(report, "en")
    expect(nl).toContain("| Maatregel | Status | Score | Gewicht |")
    expect(en).toContain("| Measure | Status | Score | Weight |")
    for (const m of report.sections.nis2.measures) {
      const id = m.id as keyof typeof MEASURE_TEXT
      expect(nl).toContain(`| ${id}) ${MEASURE_TEXT[id].label.nl} |`)
      expect(en).toContain(`| ${id}) ${m.label} |`)
    }
    for (const gap of report.sections.nis2.criticalGaps)
      expect(nl).toContain(`${gap}) ${MEASURE_TEXT[gap as keyof typeof MEASURE_TEXT].label.nl}`)
    expect(nl).toContain("- Inhoudshash: `sha256:")
    expect(nl).toContain("- Actueel rapport: https://")
    expect(nl).toMatch(/Gereedheidsindicatie uitsluitend/)
    expect(nl).not.toMatch(
      /Content hash|Live report|Retention|Critical gaps|Lookup graph|Flattening guidance|Readiness indicator/
    )
    if (en.includes("**Lookup graph**")) {
      expect(nl).toContain("**Lookupgraaf** (termen die DNS-lookups kosten)")
      expect(nl).toMatch(/: in orde, \d+ lookups?/)
    }
  })
})
