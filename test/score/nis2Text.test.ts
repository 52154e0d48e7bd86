/**
 * The NIS2 translation tables are complete: every measure, evidence item,
 * phrase and issue id NIS2 can emit has a non-empty text in every language, and docs/nis2.md's
 * mapping table is the mapping of `Nis2Mapping.ts`.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { catalogue, issueIds } from "../../src/score/Catalogue.ts"
import { fixText } from "../../src/score/Nis2Fixes.ts"
import { evidenceCheckIds, MeasureIds, MEASURES } from "../../src/score/Nis2Mapping.ts"
import { Languages, MEASURE_TEXT, PHRASES, type Text } from "../../src/score/Nis2Text.ts"
import { registry } from "../../src/checks/index.ts"
import { specsOf } from "../../src/score/Rules.ts"

const texts = (): Array<[string, Text]> => [
  ...MeasureIds.flatMap((id) =>
    (["label", "description", "scope"] as const).map((k): [string, Text] => [
      `${id}.${k}`,
      MEASURE_TEXT[id][k]
    ])
  ),
  ...MEASURES.flatMap((m) => m.evidence.map((e) => [e.checkId, e.text] as const)).flatMap(([id, t]) =>
    (["label", "pass", "notApplicable"] as const).map((k): [string, Text] => [`${id}.${k}`, t[k]])
  ),
  ...Object.entries(PHRASES)
]

describe("the NIS2 texts", () => {
  it("have every key in every language, none empty, Dutch not a copy of the English", () => {
    for (const [key, text] of texts()) {
      expect(Object.keys(text).sort(), key).toEqual([...Languages].sort())
      for (const lang of Languages) expect(text[lang].trim().length, `${key}.${lang}`).toBeGreaterThan(0)
      // Short names (DKIM, Content-Security-Policy) may be the same; a sentence may not.
      if (text.en.length > 30) expect(text.nl, key).not.toBe(text.en)
    }
  })

  it("have a text for every evidence item of the mapping", () => {
    for (const m of MEASURES)
      for (const e of m.evidence) expect(e.text.label.en.length, e.checkId).toBeGreaterThan(0)
  })

  it("translate the fix of every issue id NIS2 can emit (the whole catalogue)", () => {
    for (const id of issueIds) {
      const dutch = catalogue[id]!.nl
      expect(dutch.title.trim().length, id).toBeGreaterThan(0)
      expect(dutch.description.trim().length, id).toBeGreaterThan(0)
      expect(dutch.title, id).not.toBe(catalogue[id]!.title)
      expect(dutch.description, id).not.toBe(catalogue[id]!.description)
      expect(fixText(id, "en")).toBe(`${catalogue[id]!.title} (${id}): ${catalogue[id]!.description}`)
      expect(fixText(id, "nl")).toContain(`(${id})`)
    }
  })
})

describe("the NIS2 mapping", () => {
  const recordIds = new Set(specsOf(registry).map((s) => s.id))

  it("reads only records the score produces, each once, with observable weights summing to 100", () => {
    for (const id of evidenceCheckIds) expect(recordIds, id).toContain(id)
    expect(new Set(evidenceCheckIds).size).toBe(evidenceCheckIds.length)
    expect(MEASURES.map((m) => m.id)).toEqual([...MeasureIds])
    expect(MEASURES.reduce((s, m) => s + m.weight, 0)).toBe(100)
    for (const m of MEASURES) expect(m.weight === 0, m.id).toBe(m.evidence.length === 0)
  })

  it("is the table of docs/nis2.md", () => {
    const doc = readFileSync(new URL("../../docs/nis2.md", import.meta.url), "utf8")
    const section = doc.slice(doc.indexOf("## The mapping"), doc.indexOf("## Evidence, measures"))
    const rows = section
      .split("\n")
      .filter((l) => /^\| [a-j] \|/.test(l))
      .map((l) => l.split("|").map((c) => c.trim()))
      .map(([, id, weight, evidence]) => ({
        id,
        weight: Number(weight),
        evidence: [...evidence!.matchAll(/`([a-z0-9_.]+)` (\d+)/g)].map((m) => ({
          checkId: m[1],
          weight: Number(m[2])
        }))
      }))
    expect(rows).toEqual(
      MEASURES.map((m) => ({
        id: m.id,
        weight: m.weight,
        evidence: m.evidence.map((e) => ({ checkId: e.checkId, weight: e.weight }))
      }))
    )
  })
})
