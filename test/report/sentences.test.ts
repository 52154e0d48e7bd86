/**
 * Sentences people read are built, not concatenated: every catalogue text and every sentence a
 * report composes (the headline, the grade statement and its caps, each finding's description and
 * what to do) starts with a capital (or a number) and ends with a full stop, and no two run
 * together. Internal result codes (such as the Observatory's `sri-not-implemented-...`) never reach
 * the prose.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { COOKIE_RESULTS, SRI_RESULTS } from "../../src/checks/headers/WebContent.ts"
import { everythingOf } from "../../src/report/Everything.ts"
import type { Section } from "../../src/report/ReportSchema.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { guidanceOf, guidedIds } from "../../src/score/Guidance.ts"
import { score } from "../../src/score/Score.ts"

/** Why `text` is not a run of whole sentences, or null when it is. */
export const sentenceProblem = (text: string): string | null => {
  if (!/^[A-Z0-9]/.test(text)) return "does not start with a capital"
  if (!/[.!?]\)?$/.test(text)) return "does not end with a full stop"
  // A sentence ends at a full stop followed by a space: what follows starts the next one.
  const next = [...text.matchAll(/\S[.!?] +(\S)/g)].map((m) => m[1]!).find((c) => !/[A-Z0-9("']/.test(c))
  if (next !== undefined) return `a sentence starts with "${next}"`
  if (/[a-z0-9)] [A-Z][a-z]+ [a-z]/.test(text) && /[^.!?:;,] (Publish|Fix|Fixing|Why) /.test(text))
    return "two sentences run together"
  return null
}

/** Result codes that stay in the typed results, never in what a person reads. */
const INTERNAL_CODES: ReadonlyArray<string> = [...SRI_RESULTS, ...COOKIE_RESULTS]

const expectPlain = (where: string, text: string) => {
  const code = INTERNAL_CODES.find((c) => text.includes(c))
  expect(code, `${where} names an internal code: ${text}`).toBeUndefined()
}

/** `text` is whole sentences; `subject` (a domain name) may open it in its own case. */
const expectSentences = (where: string, text: string, subject?: string) => {
  const opened = subject !== undefined && text.startsWith(subject) ? `X${text.slice(subject.length)}` : text
  expect(sentenceProblem(opened), `${where}: ${text}`).toBeNull()
  expectPlain(where, text)
}

describe("sentences", () => {
  it("the checker tells a run of sentences from run-together or fragmentary text", () => {
    expect(sentenceProblem("Publish a DMARC record. Then move to p=reject.")).toBeNull()
    expect(sentenceProblem("1. Publish it. 2. Check it.")).toBeNull()
    expect(sentenceProblem("p=none only monitors.")).not.toBeNull()
    expect(sentenceProblem("Publish a DMARC record with at least p=none")).not.toBeNull()
    expect(sentenceProblem("Publish a DMARC record. no DMARC record.")).not.toBeNull()
  })

  it("every catalogue description and guidance text is whole sentences", () => {
    for (const [id, entry] of Object.entries(catalogue))
      expectSentences(`${id} description`, entry.description)
    for (const id of guidedIds) {
      const g = guidanceOf(id)!
      expectSentences(`${id} why`, g.why)
      g.steps.forEach((step, i) => expectSentences(`${id} step ${i + 1}`, step))
      for (const p of g.providers) expectSentences(`${id} ${p.provider}`, p.note)
    }
  })

  it("every sentence a report composes is whole, for generated scans", () => {
    fc.assert(
      fc.property(scanResult({ gradable: true }), (scan) => {
        const s = score(scan)
        const report = everythingOf(scan, "https://audit.example/api")
        expectSentences("headline", report.summary.headline, scan.domain)
        expectSentences("grade statement", s.gradeInfo.description)
        for (const cap of s.gradeInfo.caps) expectSentences("cap", cap)
        for (const r of s.recommendations) expectSentences(`${r.id} recommendation`, r.description)
        const sections = Object.values(report.sections as unknown as Record<string, Partial<Section>>)
        for (const r of sections.flatMap((x) => x.records ?? [])) expectPlain(`${r.id} detail`, r.detail)
        for (const f of sections.flatMap((x) => x.findings ?? [])) {
          expectSentences(`${f.issueId} description`, f.description)
          expectSentences(`${f.issueId} fix`, f.fix)
        }
      }),
      { numRuns: 30 }
    )
  }, 120_000)
})
