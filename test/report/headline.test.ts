/**
 * The headline of a graded domain: the report's English sentence and its Dutch rendering (pages,
 * PDF, markdown with lang=nl) are built from the same counts.
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { graded } from "../../src/report/ReportText.ts"

const priority = fc.constantFrom("critical" as const, "high" as const, "medium" as const, "low" as const)
const gradedArb = fc.record({
  domain: fc.domain(),
  percentage: fc.nat(100),
  grade: fc.constantFrom("A+", "A", "B", "C", "D", "E", "F"),
  word: fc.constantFrom("excellent", "good", "poor"),
  recommendations: fc.array(fc.record({ priority }), { maxLength: 12 }),
  unfinished: fc.nat(6)
})

const numbers = (sentence: string) => (sentence.match(/\d+/g) ?? []).map(Number)

describe("the headline of a graded domain", () => {
  it("says the same counts in English and Dutch", () => {
    fc.assert(
      fc.property(gradedArb, (g) => {
        const en = graded("en", g).replace(g.domain, "")
        const nl = graded("nl", g).replace(g.domain, "")
        expect(numbers(nl)).toEqual(numbers(en))
      })
    )
  })

  it("counts the things to fix, those critical or high, and the checks unfinished", () => {
    const g = {
      domain: "example.com",
      percentage: 71,
      grade: "C",
      word: "fair",
      recommendations: [{ priority: "critical" }, { priority: "low" }, { priority: "high" }] as const,
      unfinished: 1
    }
    expect(graded("en", g)).toBe(
      "example.com scores 71/100, grade C (fair), with 3 things to fix, 2 of them critical or high; 1 check could not finish."
    )
    expect(graded("nl", g)).toBe(
      "example.com scoort 71/100, cijfer C (fair), met 3 verbeterpunten, waarvan 2 kritiek of hoog; 1 controle kon niet worden afgerond."
    )
    expect(graded("en", { ...g, recommendations: [], unfinished: 0 })).toBe(
      "example.com scores 71/100, grade C (fair), with nothing to fix."
    )
  })
})
