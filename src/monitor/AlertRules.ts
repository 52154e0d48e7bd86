/**
 * The alert rules: given a monitor's previous scan and its new one, which rules fire.
 *
 * - `grade-drop`: the grade went down.
 * - `new-issue`: an issue of severity critical or high opened.
 * - `record-change`: a DNS or mail record changed (SPF, DMARC, MX, DKIM keys, MTA-STS, TLSA, CAA, NS).
 * - `certificate-expiry`, `dnssec-expiry`, `registration-expiry`: the early warnings of
 *   `Warnings.ts`, each sent once.
 *
 * The changes come from the history's diff (`Diff.ts`): an alert carries all of them, so its reader
 * sees what else moved. A first run has nothing to compare with and only warns. Pure.
 */
import type { ScanResult } from "../scan/ScanResult.ts"
import { gradeRank } from "../score/Model.ts"
import type { Grade } from "../score/Model.ts"
import type { Change } from "./Change.ts"
import { diffScans } from "./Diff.ts"
import { earlyWarnings, type Warning } from "./Warnings.ts"

export const AlertRuleIds = [
  "grade-drop",
  "new-issue",
  "record-change",
  "certificate-expiry",
  "dnssec-expiry",
  "registration-expiry"
] as const
export type AlertRule = (typeof AlertRuleIds)[number]

export interface Evaluation {
  /** The rules that fired, in `AlertRuleIds` order; empty: no alert. */
  readonly rules: ReadonlyArray<AlertRule>
  /** Every change since the previous scan (empty on a first run). */
  readonly changes: ReadonlyArray<Change>
  /** The early warnings not sent before. */
  readonly warnings: ReadonlyArray<Warning>
  /** The warning keys to remember after this run. */
  readonly warned: ReadonlyArray<string>
}

/** How many warning keys a monitor remembers: far more than one domain's certificates and signatures. */
const WARNED_KEPT = 500

const firedBy = (change: Change): AlertRule | undefined => {
  // A grade that moved only because the service's checks changed is info (Diff.ts): no alert.
  if (change.kind === "grade" && typeof change.before === "string" && typeof change.after === "string")
    return gradeRank(change.after as Grade) < gradeRank(change.before as Grade) && change.severity !== "info"
      ? "grade-drop"
      : undefined
  if (change.kind === "issue-opened" && (change.severity === "critical" || change.severity === "high"))
    return "new-issue"
  if (change.kind === "record") return "record-change"
  return undefined
}

/** The rules `after` fires against `before` (null: the first run) at `nowMs`. */
export const evaluate = (
  before: ScanResult | null,
  after: ScanResult,
  warned: ReadonlyArray<string>,
  nowMs: number
): Evaluation => {
  const changes = before === null ? [] : diffScans(before, after)
  const sent = new Set(warned)
  const warnings = earlyWarnings(after, nowMs).filter((w) => !sent.has(w.key))
  const fired = new Set<AlertRule>([
    ...changes.flatMap((c) => firedBy(c) ?? []),
    ...warnings.map((w) => w.rule)
  ])
  return {
    rules: AlertRuleIds.filter((r) => fired.has(r)),
    changes,
    warnings,
    warned: [...warned, ...warnings.map((w) => w.key)].slice(-WARNED_KEPT)
  }
}
