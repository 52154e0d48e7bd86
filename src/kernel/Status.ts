import { Schema } from "effect"

/**
 * The verdicts every check speaks in. `unknown` means the question could not be answered
 * (timeout, SERVFAIL, unreachable server) and must never be shown or scored as `missing`.
 */
export const CheckStatuses = ["pass", "warning", "fail", "missing", "not-applicable", "unknown"] as const
export type CheckStatus = (typeof CheckStatuses)[number]

export const Status = Schema.Literal(...CheckStatuses).annotations({
  description:
    "pass / warning / fail / missing / not-applicable / unknown (a lookup failed: not the same as missing)"
})

/**
 * The verdict of several results that must all hold (every mail server, every TLSA set): a failure
 * outweighs an unanswered question, which outweighs a warning. Other statuses count as passing.
 */
export const worstOf = (statuses: ReadonlyArray<CheckStatus>): CheckStatus =>
  statuses.includes("fail")
    ? "fail"
    : statuses.includes("unknown")
      ? "unknown"
      : statuses.includes("warning")
        ? "warning"
        : "pass"

export const Severities = ["critical", "high", "medium", "low", "info"] as const
export const Severity = Schema.Literal(...Severities)
export type Severity = typeof Severity.Type

/** A problem with a stable id (for the issue catalogue and scoring) and a human message. */
export const Finding = Schema.Struct({
  id: Schema.String,
  severity: Severity,
  message: Schema.String
}).annotations({ identifier: "Finding" })
export type Finding = typeof Finding.Type
