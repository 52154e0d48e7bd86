/**
 * One form of address in every Dutch text a person reads: "je" (informal, as most of the guidance is
 * written), never "u". Read over the catalogue (titles, descriptions, guidance), the checks' and
 * sections' Dutch titles, the NIS2 texts, and the words of the pages, the PDF and the markdown.
 */
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { words } from "../../src/pages/Text.ts"
import { markdownWords } from "../../src/report/MarkdownText.ts"
import { reportWords } from "../../src/report/ReportText.ts"
import { concerns } from "../../src/report/Sections.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { guidanceOf } from "../../src/score/Guidance.ts"
import { MEASURE_TEXT, PHRASES } from "../../src/score/Nis2Text.ts"
import { specsOf } from "../../src/score/Rules.ts"

/** Every string in a value: its own, those of objects and arrays, and what its functions say. */
const strings = (value: unknown): ReadonlyArray<string> => {
  if (typeof value === "string") return [value]
  if (typeof value === "function")
    return strings((value as (...args: ReadonlyArray<unknown>) => unknown)(2, "example.nl", 3, 4, 5))
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings)
  return []
}

const dutch = (): ReadonlyArray<readonly [string, string]> => [
  ...Object.entries(catalogue).flatMap(([id, entry]) => [
    [id, entry.nl.title] as const,
    [id, entry.nl.description] as const,
    ...strings(guidanceOf(id, "example.nl", "nl")).map((s) => [`${id} guidance`, s] as const)
  ]),
  ...specsOf(registry).map((spec) => [spec.id, spec.titleNl] as const),
  ...concerns.map((c) => [c.key, c.titleNl] as const),
  ...strings(MEASURE_TEXT).map((s) => ["NIS2 measures", s] as const),
  ...Object.values(PHRASES).map((p) => ["NIS2 phrases", p.nl] as const),
  ...registry
    .flatMap((c) =>
      c.about.nis2.flatMap((e) => strings([e.text.label.nl, e.text.pass.nl, e.text.notApplicable.nl]))
    )
    .map((s) => ["NIS2 evidence", s] as const),
  ...strings(words("nl")).map((s) => ["pages", s] as const),
  ...strings(reportWords("nl")).map((s) => ["PDF", s] as const),
  ...strings(markdownWords("nl")).map((s) => ["markdown", s] as const)
]

/** The formal address: u, uw, uzelf (as a word, any case at the start of a sentence). */
const FORMAL = /(?:^|[\s(“"'])(?:u|uw|uzelf|U|Uw|Uzelf)(?=[\s,.;:!?)”"']|$)/
const INFORMAL = /(?:^|[\s(“"'])(?:je|jij|jou|jouw|jezelf|Je|Jij|Jouw)(?=[\s,.;:!?)”"']|$)/

describe("the Dutch form of address", () => {
  const texts = dutch()

  it("reads many Dutch texts, the guidance's in the informal form", () => {
    expect(texts.length).toBeGreaterThan(500)
    expect(texts.filter(([, s]) => INFORMAL.test(s)).length).toBeGreaterThan(50)
  })

  it('never addresses the reader as "u"', () => {
    const formal = texts.filter(([, s]) => FORMAL.test(s))
    expect(formal).toEqual([])
  })
})
