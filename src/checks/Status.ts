/**
 * The verdicts every check speaks in. `unknown` means the question could not be answered
 * (timeout, SERVFAIL, unreachable server) and must never be shown or scored as `missing`.
 */
export const CheckStatuses = ["pass", "warning", "fail", "missing", "not-applicable", "unknown"] as const
export type CheckStatus = (typeof CheckStatuses)[number]

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
