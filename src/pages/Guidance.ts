/**
 * What a page says about one issue: why it matters, the steps to take, and what happens while it
 * stays, from the one text the catalogue and the knowledge base hold for the issue (the same text
 * `/ai/explain` answers with). A finding the catalogue does not know (a rule a result judges
 * itself by) is shown with its own description and fix. Pure.
 */
import { advice } from "../ai/Knowledge.ts"
import type { Finding } from "../report/ReportSchema.ts"
import { catalogue } from "../score/Catalogue.ts"

export interface PageGuidance {
  readonly why: string
  readonly steps: ReadonlyArray<string>
  readonly impact: string | null
}

/** Sentences of a recommendation as steps: one per sentence, so a reader can follow them in order. */
const stepsOf = (text: string): Array<string> =>
  text
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s !== "")

export const guidanceOf = (finding: Finding): PageGuidance => {
  const entry = Object.hasOwn(catalogue, finding.issueId) ? catalogue[finding.issueId] : undefined
  const known = Object.hasOwn(advice, finding.issueId) ? advice[finding.issueId] : undefined
  if (entry === undefined || known === undefined)
    return { why: finding.description, steps: stepsOf(finding.fix), impact: null }
  return {
    why: [finding.description, known.detail]
      .filter((s): s is string => s !== undefined && s !== "")
      .join(" "),
    steps: stepsOf(known.recommendation),
    impact: known.impact
  }
}
