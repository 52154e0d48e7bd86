/**
 * The rules that turn a scan's check results into scored records (docs/scoring.md has the table).
 * Each rule reads its check's result through the check's Schema fields; a check that is `unknown`
 * in the scan, or whose own status is `unknown` / `not-applicable`, yields a record that carries 0 of 0.
 */
import type { Category } from "../checks/Check.ts"
import type { CheckOutcome } from "../checks/ScanResult.ts"
import type { IssueId } from "./Catalogue.ts"
import { type CheckRecord, type Level, record, type RecordStatus } from "./Model.ts"

export type Scored = CheckRecord & { readonly category: Category }

export interface Spec {
  readonly id: string
  readonly title: string
  readonly category: Category
  readonly maxPoints: number
  readonly level: Level
  readonly critical?: boolean
  /** One sentence: what earns the points (docs/scoring.md's table is checked against it). */
  readonly rule: string
}

export interface Verdict {
  readonly status: RecordStatus
  readonly points?: number
  readonly detail: string
  readonly issues?: ReadonlyArray<IssueId>
  readonly fatal?: boolean
}

export const scored = (spec: Spec, v: Verdict): Scored => ({
  ...record({
    id: spec.id,
    title: spec.title,
    maxPoints: spec.maxPoints,
    level: spec.level,
    critical: spec.critical ?? false,
    status: v.status,
    points: v.points,
    detail: v.detail,
    fatal: v.fatal,
    issues: v.issues
  }),
  category: spec.category
})

export const pass = (detail: string): Verdict => ({ status: "pass", detail })
export const fail = (detail: string, ...issues: Array<IssueId>): Verdict => ({
  status: "fail",
  detail,
  issues
})
export const partial = (points: number, detail: string, ...issues: Array<IssueId>): Verdict => ({
  status: "partial",
  points,
  detail,
  issues
})
export const unknown = (detail: string): Verdict => ({ status: "unknown", detail })
export const notApplicable = (detail: string): Verdict => ({ status: "not-applicable", detail })

/**
 * What a rule reads of a check's outcome: a full scan's `CheckOutcome`, or the same three fields
 * built by a composite that ran the check itself (`composite/EmailCheck.ts` for `GET /email/check`).
 */
export type Judged<A> = Pick<CheckOutcome<A>, "status" | "reason" | "result">

/** The result of a check that finished, or the verdict `unknown` with the Scanner's reason. */
export const judge = <A>(outcome: Judged<A> | undefined, f: (result: A) => Verdict): Verdict =>
  outcome === undefined
    ? unknown("the check did not run")
    : outcome.status === "unknown" || outcome.result === null
      ? unknown(`the check could not finish: ${outcome.reason ?? "no result"}`)
      : f(outcome.result)
