/**
 * A change's sentence ends with one full stop, also when the value it ends with already ends in one:
 * a name written as DNS writes it (`mail.example.com.`), in English and in Dutch.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Change } from "../../src/monitor/Change.ts"
import { families, sentence } from "../../src/monitor/DiffFacts.ts"
import { changeSentence } from "../../src/monitor/DiffText.ts"
import { runs } from "../support/runs.ts"

const mxAdded: Change = {
  kind: "record",
  id: "record/mx",
  before: null,
  after: ["10 mail.example.com."],
  severity: "info",
  summary: ""
}

describe("a change's sentence", () => {
  it("gets exactly one full stop at its end, whatever its last value ends with", () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (text, dotted) => {
        const ended = sentence(dotted ? `${text}.` : text)
        expect(ended.endsWith(".")).toBe(true)
        expect(sentence(ended)).toBe(ended)
      }),
      { numRuns: runs(100) }
    )
  })

  it("names an MX host written with its final dot once, in English and in Dutch", () => {
    const english = families
      .map((f) => f.word("record/mx", null, mxAdded.after).summary)
      .find((s) => s.startsWith("The MX set"))
    expect(english).toBe("The MX set was added: 10 mail.example.com.")
    expect(changeSentence(mxAdded, "nl")).toBe("De MX-set is toegevoegd: 10 mail.example.com.")
  })
})
