/**
 * Every catalogue issue's guidance reads in Dutch: why, every step and the provider notes, written
 * beside the English in the check's own folder. A missing or untranslated text fails here, so a
 * Dutch page, PDF or markdown never shows English advice. The record, the generator and the sources
 * are not prose and are the same in both languages.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { issueIds } from "../../src/score/Catalogue.ts"
import { guidanceOf } from "../../src/score/Guidance.ts"
import { runs } from "../support/runs.ts"

const API_PATH =
  /\b(GET|POST|PUT|DELETE|PATCH)\s+\/|(^|[\s(])\/(api|email|dns|ai|scan|report|pdf|badge)(\/|\b)/

/**
 * English words that never belong in Dutch prose (product menu names keep their own words; a
 * header value such as strict-origin-when-cross-origin is not prose).
 */
const ENGLISH = /(?<![\w-])(the|your|which|should|when|without)(?![\w-])/

describe("the Dutch guidance", () => {
  it.each(issueIds)("%s: says why, every step and every provider note in Dutch", (id) => {
    const en = guidanceOf(id, "example.com", "en")!
    const nl = guidanceOf(id, "example.com", "nl")!
    expect(nl.why.length, "why").toBeGreaterThan(40)
    expect(nl.why).not.toBe(en.why)
    // the same steps in the same order, each one translated
    expect(nl.steps.length).toBe(en.steps.length)
    nl.steps.forEach((step, i) => {
      expect(step.trim()).not.toBe("")
      expect(step, `step ${i + 1} is still English`).not.toBe(en.steps[i])
    })
    // a note for exactly the providers the English notes
    expect(nl.providers.map((p) => p.provider)).toEqual(en.providers.map((p) => p.provider))
    if (en.providers.length > 0)
      expect(nl.providers.map((p) => p.note).join("\n")).not.toBe(en.providers.map((p) => p.note).join("\n"))
    for (const text of [nl.why, ...nl.steps, ...nl.providers.map((p) => p.note)]) {
      expect(text, `an English word in: ${text}`).not.toMatch(ENGLISH)
      expect(text, `an API path in: ${text}`).not.toMatch(API_PATH)
      expect(text).toMatch(/[.:!?)]$/)
    }
    // not prose: the same in both languages
    expect(nl.record).toBe(en.record)
    expect(nl.generator).toBe(en.generator)
    expect(nl.references).toEqual(en.references)
  })

  it("names the domain wherever the English does, and leaves no placeholder", () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/)
    fc.assert(
      fc.property(fc.constantFrom(...issueIds), label, (id, name) => {
        const domain = `${name}.nl`
        const nl = JSON.stringify(guidanceOf(id, domain, "nl"))
        expect(nl).not.toContain("{domain}")
        const names = (lang: "en" | "nl") =>
          JSON.stringify(guidanceOf(id, "sentinel.invalid", lang)).split("sentinel.invalid").length - 1
        // the prose names the domain as often in Dutch as in English (record and note included)
        expect(names("nl")).toBe(names("en"))
      }),
      { numRuns: runs(100) }
    )
  })
})
