/** The PDF report: its text says what the score says, and its bytes are fixed. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { type IssueId, issueIds } from "../../src/score/Catalogue.ts"
import { scored } from "../../src/score/Rules.ts"
import { scoreRecords } from "../../src/score/Score.ts"
import { guidanceOf } from "../../src/score/Guidance.ts"
import { renderPdf, winAnsi } from "../../src/report/PdfReport.ts"
import { pdfText } from "./pdfText.ts"
import { runs } from "../support/runs.ts"
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
      critical: false,
      rule: "",
      rank: i
    },
    { status: points === 5 ? "pass" : "fail", points, detail: `detail of check ${i}`, issues }
  )

const meta = { domain: toDomain("spf-passall.com"), timestamp: "2026-03-04T05:06:07.000Z", cached: false }
const flawed = scoreRecords(
  [
    record(1, "email", 0, ["spf_plus_all"]),
    record(2, "email", 2, ["dmarc_policy_none"]),
    record(3, "security", 0, ["hsts_missing"]),
    record(4, "dns", 5, [])
  ],
  meta
)
const text = (s: string) => s.replace(/\s+/g, " ")

describe("renderPdf", () => {
  it("shows the domain, grade, score, categories and every issue with its guidance", async () => {
    const bytes = await renderPdf({ score: flawed, nis2: null })
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-")
    const t = text(await pdfText(bytes))
    expect(t).toContain("spf-passall.com")
    expect(t).toContain(`Score ${flawed.percentage} / 100`)
    // the grade statement (band and caps) is printed once
    expect(t.split(text(flawed.gradeInfo.description)).length).toBe(2)
    for (const c of ["dns", "email", "security"]) expect(t).toContain(c)
    for (const issue of flawed.issues) {
      expect(t).toContain(text(winAnsi(issue.title)))
      expect(t).toContain(issue.id)
      const g = guidanceOf(issue.id, flawed.domain)!
      expect(t).toContain(text(g.why).slice(0, 60))
      for (const step of g.steps) expect(t).toContain(text(step).slice(0, 40))
    }
    const flat = t.replace(/\s/g, "") // long lines wrap at "/"
    expect(flat).toContain("prioritycritical,fixingitregains5points")
    expect(flat).toContain("POST/email/spf/generate")
    expect(flat).toContain("POST/security-headers/generate")
    expect(t).toContain("Found by Check 1: detail of check 1")
    expect(t).toContain("NIS2 readiness summary is not available")
    expect(t).not.toContain("Correct what the description names")
  })

  it("shows the NIS2 summary when given one", async () => {
    const t = text(
      await pdfText(
        await renderPdf({
          score: flawed,
          nis2: {
            total: 42,
            status: "partial",
            criticalGaps: ["Email authentication: SPF allows any sender"],
            measured: "Meets 5 of the 8 measured controls."
          }
        })
      )
    )
    expect(t).toContain("Readiness: 42 / 100. Meets 5 of the 8 measured controls.")
    expect(t).not.toMatch(/compliant/i)
    expect(t).toContain("Email authentication: SPF allows any sender")
  })

  it("gives identical bytes for the same report, and others for another scan time", async () => {
    const one = await renderPdf({ score: flawed, nis2: null })
    const two = await renderPdf({ score: flawed, nis2: null })
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(true)
    const later = await renderPdf({ score: { ...flawed, timestamp: "2026-03-04T05:06:08.000Z" }, nis2: null })
    expect(Buffer.from(one).equals(Buffer.from(later))).toBe(false)
  })

  it("renders any generated score, deterministically, with every issue id in its text", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            category: fc.constantFrom(...Categories),
            points: fc.integer({ min: 0, max: 5 }),
            issues: fc.array(fc.constantFrom(...issueIds), { maxLength: 3 })
          }),
          { minLength: 1, maxLength: 20 }
        ),
        async (rs) => {
          const s = scoreRecords(
            rs.map((r, i) => record(i, r.category, r.points, r.issues as Array<IssueId>)),
            meta
          )
          const bytes = await renderPdf({ score: s, nis2: null })
          expect(Buffer.from(bytes).equals(Buffer.from(await renderPdf({ score: s, nis2: null })))).toBe(true)
          const t = text(await pdfText(bytes))
          for (const issue of s.issues) expect(t).toContain(issue.id)
        }
      ),
      { numRuns: runs(15) }
    )
  }, 60_000)

  it("maps typographic punctuation to what the standard fonts can draw", () => {
    expect(winAnsi("“quoted” – a…b → c ≥ d ✓")).toBe('"quoted" - a...b -> c >= d ?')
  })
})
