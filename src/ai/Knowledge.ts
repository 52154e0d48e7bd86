/**
 * The knowledge base behind `POST /ai/explain` and `/ai/fix` (docs/ai.md): one entry per id of the
 * issue catalogue, adding impact and recommendation to the catalogue's title, severity and
 * description. Each check declares the advice on its own issues beside them
 * (`checks/<check>/Issues.ts`); `test/score/knowledge.test.ts` fails when a catalogue id has none.
 * Pure.
 */
import type { Advice } from "../checks/Declaration.ts"
import { registry } from "../checks/index.ts"
import { catalogue, type IssueId } from "../score/Catalogue.ts"

export type { Advice } from "../checks/Declaration.ts"

export const advice: Readonly<Record<IssueId, Advice>> = Object.fromEntries(
  registry.flatMap((c) => Object.entries(c.about.advice))
)

/** The knowledge-base answer for a catalogue id, in the spec's explain fields. */
export const explainIssue = (id: IssueId) => {
  const entry = catalogue[id]!
  const extra: Advice = advice[id]!
  return {
    title: entry.title,
    explanation: `${entry.title}. ${entry.description}${extra.detail ? ` ${extra.detail}` : ""}`,
    // the spec's explain severities have no "info": information is the lowest, "low"
    severity: entry.severity === "info" ? ("low" as const) : entry.severity,
    impact: extra.impact,
    recommendation: extra.recommendation
  }
}

export type Explanation = ReturnType<typeof explainIssue>

/**
 * An `issue_type` as a user may write it: `dmarc_policy_none`, `DMARC-POLICY-NONE`. Returns the
 * catalogue id, or undefined.
 */
export const issueIdOf = (text: string): IssueId | undefined => {
  const id = text
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_")
  return Object.hasOwn(catalogue, id) ? (id as IssueId) : undefined
}

/** Up to `n` catalogue ids close to an unknown `issue_type` (shared words first), for the 400. */
export const closeIds = (text: string, n = 3): ReadonlyArray<IssueId> => {
  const words = new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1)
  )
  return (Object.keys(catalogue) as Array<IssueId>)
    .map((id) => ({ id, shared: id.split("_").filter((w) => words.has(w)).length }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.id.localeCompare(b.id))
    .slice(0, n)
    .map((x) => x.id)
}
