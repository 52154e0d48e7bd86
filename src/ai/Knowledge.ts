/**
 * The knowledge base behind `POST /ai/explain` and `/ai/fix` (docs/ai.md): one entry per id of the
 * issue catalogue. The explanation is the catalogue's title and description with the advice's
 * detail (`checks/<check>/Issues.ts`); impact and recommendation are the issue's guidance
 * (`score/Guidance.ts`: why it matters, the numbered steps), the same text the PDF, the markdown
 * and the pages show. Pure.
 */
import type { Advice, FindingNote, FindingTable } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import { catalogue, type IssueId } from "../score/Catalogue.ts"
import { type Guidance, guidanceOf } from "../score/Guidance.ts"
import { stepsInline } from "../report/GuidanceText.ts"

export type { Advice } from "../kernel/Declaration.ts"

export const advice: Readonly<Record<IssueId, Advice>> = Object.fromEntries(
  registry.flatMap((c) => Object.entries(c.about.advice))
)

/** The knowledge-base answer for a catalogue id, in the spec's explain fields. */
export const explainIssue = (id: IssueId) => {
  const entry = catalogue[id]!
  const extra: Advice = advice[id]!
  const guidance: Guidance = guidanceOf(id)!
  return {
    title: entry.title,
    explanation: `${entry.title}. ${entry.description}${extra.detail ? ` ${extra.detail}` : ""}`,
    // the spec's explain severities have no "info": information is the lowest, "low"
    severity: entry.severity === "info" ? ("low" as const) : entry.severity,
    impact: guidance.why,
    recommendation: stepsInline(guidance),
    guidance: guidance as Guidance | null
  }
}

export type Explanation = ReturnType<typeof explainIssue>

/**
 * The finding ids the checks report in their results' `findings[].id` (`spf-multiple`), each with
 * the catalogue id it is or its note when it is information: one namespace with the catalogue's, so
 * every id a result shows can be explained.
 */
export const findingIds: FindingTable = Object.fromEntries(
  registry.flatMap((c) => Object.entries(c.about.findingIds ?? {}))
)

/** A finding id as a user may write it: lower-cased, with blanks and `_` read as `-`. */
const asFindingId = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, "-")

const findingOf = (text: string): string | FindingNote | undefined => {
  const id = asFindingId(text)
  return Object.hasOwn(findingIds, id) ? findingIds[id] : undefined
}

/**
 * An `issue_type` as a user may write it: `dmarc_policy_none`, `DMARC-POLICY-NONE`, or the id of a
 * finding that is that issue (`dmarc-p-none`). Returns the catalogue id, or undefined.
 */
export const issueIdOf = (text: string): IssueId | undefined => {
  const id = text
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_")
  if (Object.hasOwn(catalogue, id)) return id as IssueId
  const finding = findingOf(text)
  return typeof finding === "string" ? finding : undefined
}

/** The knowledge-base answer for a finding that is information (no catalogue entry, no fix). */
const explainNote = (note: FindingNote): Explanation => ({
  title: note.title,
  explanation: `${note.title}. ${note.description}`,
  severity: "low",
  impact: "Information, not an issue: it costs no points and is not a fault of the domain by itself.",
  recommendation: note.recommendation,
  guidance: null
})

/**
 * What `/ai/explain` answers for a user's text: a catalogue id or an issue's finding id answers as
 * the catalogue entry; an information finding's id answers with its note. Undefined when unknown.
 */
export const explanationOf = (
  text: string
): { readonly id: string; readonly answer: Explanation } | undefined => {
  const id = issueIdOf(text)
  if (id !== undefined) return { id, answer: explainIssue(id) }
  const finding = findingOf(text)
  return typeof finding === "object" ? { id: asFindingId(text), answer: explainNote(finding) } : undefined
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
