/**
 * The markdown rendering is total and deterministic over any report the Schema allows: it never
 * throws, gives the same text twice, keeps the summary table and a heading per concern, and no
 * table row is broken by a `|` or a newline in a value.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck } from "effect"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { concerns } from "../../src/report/Sections.ts"
import { runs } from "../support/runs.ts"

describe("renderMarkdown", () => {
  it("is deterministic and keeps its structure for any report", () =>
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(EverythingReport), (report) => {
        const text = renderMarkdown(report)
        expect(renderMarkdown(structuredClone(report))).toBe(text)
        expect(text).toContain("| Section | Status | Findings |")
        // Summary, Evidence, one per concern, NIS2, Sources, and Reports received when the report
        // carries them: no value adds or hides one
        const headings = text.split("\n").filter((l) => l.startsWith("## "))
        expect(headings.length).toBe(concerns.length + 4 + (report.reportsReceived === undefined ? 0 : 1))
        const rows = text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Section"))
        for (const row of rows) expect(row.endsWith(" |")).toBe(true)
      }),
      { numRuns: runs(20) }
    ))
})
