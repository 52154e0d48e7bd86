/**
 * The one ordered list of what to fix, computed once from the score: each issue that is not mere
 * information, with the points fixing it regains. Ordered by those points, then by severity, then
 * by id, so two fixes never tie. The API's `recommendations`, the report page, the PDF, the
 * markdown, the CLI summary and the alerts all show this list, in this order and this count
 * (test/score/fixes.test.ts holds them to it). Pure.
 */
import { Schema } from "effect"
import type { Entry } from "../kernel/Declaration.ts"
import { type MailboxProvider, MailboxProviders, providersRequiring } from "../checks/sender/Depends.ts"
import type { SenderRequirementsResult } from "../checks/sender/SenderRequirements.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { Severities } from "../kernel/Status.ts"
import { type IssueId, issueOf } from "./Catalogue.ts"
import type { Scored } from "./Rules.ts"

/**
 * One entry of the list: every presentation shows these, in this order and this count.
 */
export const Recommendation = Schema.Struct({
  id: Schema.String,
  priority: Schema.Literal("critical", "high", "medium", "low"),
  title: Schema.String,
  description: Schema.String,
  impact: Schema.String,
  /** The points the fix would regain (the list is ordered by them, then by priority, then by id). */
  points: Schema.Int,
  /** The mailbox providers whose bulk-sender requirements this finding fails (checks/sender). */
  requiredBy: Schema.optionalWith(Schema.Array(Schema.Literal(...MailboxProviders)), {
    default: () => []
  }).annotations({
    description:
      "The mailbox providers (google, yahoo, microsoft) whose bulk-sender requirements this fix meets; empty when none"
  })
})
export type Recommendation = typeof Recommendation.Type

const PRIORITY = { critical: "critical", high: "high", medium: "medium", low: "low", info: "low" } as const

/** Most points first, then the more severe, then by id: a total order, the same everywhere. */
export const fixOrder = (
  a: { readonly points: number; readonly priority: Recommendation["priority"]; readonly id: string },
  b: { readonly points: number; readonly priority: Recommendation["priority"]; readonly id: string }
): number =>
  b.points - a.points ||
  Severities.indexOf(a.priority) - Severities.indexOf(b.priority) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** What a fix regains, in words a sentence can end with. */
const impactOf = (points: number): string =>
  points > 0 ? `regains ${points} point${points === 1 ? "" : "s"}` : "lifts a cap or an unscored risk"

/**
 * The list of what to fix among `ids` (the score's issues): the points each regains are those its
 * records lose; information-only issues ask for no fix and are left out.
 */
export const fixesOf = (
  records: ReadonlyArray<Scored>,
  ids: ReadonlyArray<IssueId>,
  entries: Readonly<Record<IssueId, Entry>>,
  requiredBy: ReadonlyMap<IssueId, ReadonlyArray<MailboxProvider>> = new Map()
): ReadonlyArray<Recommendation> =>
  ids
    .filter((id) => entries[id]!.severity !== "info")
    .map((id): Recommendation => {
      const issue = issueOf(id, entries)
      const points = records
        .filter((r) => r.issues.includes(id))
        .reduce((s, r) => s + (r.maxPoints - r.points), 0)
      return {
        id,
        priority: PRIORITY[issue.severity],
        title: `Fix: ${issue.title}`,
        description: issue.description,
        impact: impactOf(points),
        points,
        requiredBy: requiredBy.get(id) ?? []
      }
    })
    .sort(fixOrder)

/**
 * The list for a domain that cannot be graded (Scannable.ts): its points are not at stake, since
 * nothing was measured, so no fix claims to regain them. What is left is the fix that makes the
 * domain scannable (for a name that does not exist, registering or spelling it), in the same order.
 */
export const unscannableFixes = (fixes: ReadonlyArray<Recommendation>): ReadonlyArray<Recommendation> =>
  fixes.map((fix) => ({ ...fix, points: 0, impact: "lets the domain be scanned and graded" }))

/** For each issue, the mailbox providers whose sender requirements the scan shows it failing. */
export const requiredByOf = (
  scan: Pick<ScanResult, "checks">
): ReadonlyMap<IssueId, ReadonlyArray<MailboxProvider>> => {
  const outcome = (scan.checks as Readonly<Record<string, { readonly result: unknown } | undefined>>)[
    "sender-requirements"
  ]
  const result = outcome?.result as SenderRequirementsResult | null | undefined
  return result == null ? new Map() : providersRequiring(result)
}

const PROVIDER_NAMES: Record<MailboxProvider, string> = {
  google: "Google",
  yahoo: "Yahoo",
  microsoft: "Microsoft"
}

/** "Google, Yahoo and Microsoft": the providers as a reader names them. */
export const providerList = (providers: ReadonlyArray<MailboxProvider>): string => {
  const names = providers.map((p) => PROVIDER_NAMES[p])
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`
}

/** The sentence a fix card adds when mailbox providers require it, or "" when none does. */
export const requiredBySentence = (fix: Pick<Recommendation, "requiredBy">): string =>
  fix.requiredBy.length === 0
    ? ""
    : `${providerList(fix.requiredBy)} require${fix.requiredBy.length === 1 ? "s" : ""} this of bulk senders.`
