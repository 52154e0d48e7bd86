/**
 * The verdicts every check speaks in. `unknown` means the question could not be answered
 * (timeout, SERVFAIL, unreachable server) and must never be shown or scored as `missing`.
 */
export type CheckStatus = "pass" | "warning" | "fail" | "missing" | "not-applicable" | "unknown"
