/** The knowledge base behind /ai/explain and /ai/fix covers every id of the issue catalogue. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogue, issueIds } from "../../src/score/Catalogue.ts"
import {
  advice,
  closeIds,
  explainIssue,
  explanationOf,
  findingIds,
  issueIdOf
} from "../../src/ai/Knowledge.ts"

describe("the knowledge base", () => {
  it("has an entry for every catalogue id, and none for ids the catalogue lacks", () => {
    const missing = issueIds.filter((id) => !Object.hasOwn(advice, id))
    expect(missing, `catalogue ids without a knowledge-base entry: ${missing.join(", ")}`).toEqual([])
    expect(Object.keys(advice).filter((id) => !Object.hasOwn(catalogue, id))).toEqual([])
  })

  it("answers every id with the spec's explain fields, reusing the catalogue's words", () => {
    for (const id of issueIds) {
      const answer = explainIssue(id)
      expect(["low", "medium", "high", "critical"]).toContain(answer.severity)
      expect(answer.explanation).toContain(catalogue[id]!.description)
      expect(answer.impact.length).toBeGreaterThan(20)
      expect(answer.recommendation.length).toBeGreaterThan(20)
      // the entry adds to the catalogue rather than repeating it
      expect(answer.impact).not.toBe(catalogue[id]!.description)
    }
  })

  it("explains every finding id the SPF and DMARC results can show, in one namespace with the catalogue", () => {
    const ids = Object.keys(findingIds)
    expect(ids).toEqual(
      expect.arrayContaining(["spf-multiple", "spf-unknown", "dmarc-p-none", "dmarc-inherited"])
    )
    for (const id of ids) {
      const found = explanationOf(id)
      expect(found, id).toBeDefined()
      const is = findingIds[id]!
      if (typeof is === "string") {
        // an issue's finding id names its catalogue entry: the same answer, and /ai/fix reads it too
        expect(found!.id).toBe(is)
        expect(found!.answer).toEqual(explainIssue(is))
        expect(issueIdOf(id)).toBe(is)
      } else {
        expect(found!.id).toBe(id)
        expect(found!.answer.explanation).toContain(is.description)
        expect(found!.answer.severity).toBe("low")
        expect(issueIdOf(id)).toBeUndefined()
      }
    }
    // a finding id that reads as a catalogue id (spf-missing, spf_missing) is that catalogue id
    for (const id of ids) {
      const snake = id.replace(/-/g, "_")
      if (Object.hasOwn(catalogue, snake)) expect(findingIds[id], id).toBe(snake)
    }
  })

  it("reads ids as users write them, and suggests close ones for unknown text", () => {
    expect(issueIdOf("dmarc_policy_none")).toBe("dmarc_policy_none")
    expect(issueIdOf(" SPF-Too-Many-Lookups ")).toBe("spf_too_many_lookups")
    expect(issueIdOf("constructor")).toBeUndefined()
    expect(issueIdOf("__proto__")).toBeUndefined()
    expect(closeIds("too many spf lookups")).toContain("spf_too_many_lookups")
    expect(closeIds("zzz")).toEqual([])
  })

  it("never throws on any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const id = issueIdOf(text)
        if (id !== undefined) expect(issueIds).toContain(id)
        explanationOf(text)
        expect(closeIds(text).length).toBeLessThanOrEqual(3)
      })
    )
  })
})
