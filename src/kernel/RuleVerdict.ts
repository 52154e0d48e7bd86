/**
 * A rule's verdict on one scan and the words it is built with (`pass`, `fail`, `partial`,
 * `unknown`, `notApplicable`): what every check's rules return, beside the rest a check declares
 * (Declaration.ts).
 */
import { Schema } from "effect"

export const RecordStatus = Schema.Literal("pass", "partial", "fail", "not-applicable", "unknown")
export type RecordStatus = typeof RecordStatus.Type

/** A rule's judgement of one scan. */
export interface Verdict {
  readonly status: RecordStatus
  readonly points?: number
  readonly detail: string
  /** Catalogue ids of what the rule found wrong. */
  readonly issues?: ReadonlyArray<string>
  readonly fatal?: boolean
}

export const pass = (detail: string): Verdict => ({ status: "pass", detail })
export const fail = (detail: string, ...issues: Array<string>): Verdict => ({
  status: "fail",
  detail,
  issues
})
export const partial = (points: number, detail: string, ...issues: Array<string>): Verdict => ({
  status: "partial",
  points,
  detail,
  issues
})
export const unknown = (detail: string): Verdict => ({ status: "unknown", detail })
export const notApplicable = (detail: string): Verdict => ({ status: "not-applicable", detail })

/**
 * The verdict on a practice judged by how far it has spread over a domain's servers, shown and not
 * scored yet (REQUIRETLS, the post-quantum hybrids): on every server it passes; on some it is the
 * finding `someIssue`, since the same traffic is protected or not by which server a client reaches;
 * on none (or no server to ask) it is not applicable.
 */
export const spread = (
  reach: "all" | "some" | "none" | "unknown",
  detail: string,
  someIssue: string
): Verdict =>
  reach === "all"
    ? pass(detail)
    : reach === "some"
      ? fail(detail, someIssue)
      : reach === "unknown"
        ? unknown(detail)
        : notApplicable(detail)
