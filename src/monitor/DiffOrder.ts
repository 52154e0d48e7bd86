/**
 * The one order in which a diff is read, wherever it is shown: the history API's `changes`, the
 * evidence, the history page, an alert's changes and summaries, its e-mail, `batch --compare`.
 * Two scans of a domain whose web site went away differ in thirty checks turning
 * `not-applicable`; the DMARC policy weakened in the same interval must not come after them.
 *
 * 1. the grade change;
 * 2. what got worse: issues opened, and checks, records, certificates and listings that changed
 *    for the worse, from critical to info;
 * 3. the checks that no longer apply, together, by area (CheckAreas.ts): one line in the human
 *    presentations (DiffLines.ts);
 * 4. the rest: improvements (issues resolved, checks passing again, records added) and notes on
 *    the service's own changes.
 *
 * Within a part: issues before records, listings, certificates and checks (the issue names what it
 * means, the others say what moved), checks in the order the score lists its records, then by id.
 * Ids are unique within a diff, so the order is total: ordering is idempotent and does not depend
 * on the order changes came in. Pure.
 */
import { registry } from "../checks/index.ts"
import { Severities, type Severity } from "../kernel/Status.ts"
import { specsOf } from "../score/Rules.ts"
import { type Change, type ChangeKind } from "./Change.ts"
import { Areas, areaOf } from "./CheckAreas.ts"

export type Part = "grade" | "worse" | "no-longer-applies" | "better"
const PARTS: ReadonlyArray<Part> = ["grade", "worse", "no-longer-applies", "better"]

/** The score record a `check` change is about (`check/<record id>`). */
export const recordIdOf = (change: Change): string => change.id.slice("check/".length)

/**
 * A check both scans judged that now does not apply. One only the new scan made (the service added
 * it since) has `before` null: that is a note on the service, not a change of the domain.
 */
export const noLongerApplies = (change: Change): boolean =>
  change.kind === "check" && change.before !== null && change.after === "not-applicable"

/**
 * The part a change belongs to. Severity says the direction (Diff.ts gives every change for the
 * better `info`), except for an issue opened: it is news at any severity, its own.
 */
export const partOf = (change: Change): Part =>
  change.kind === "grade"
    ? "grade"
    : noLongerApplies(change)
      ? "no-longer-applies"
      : change.kind === "issue-opened" || change.severity !== "info"
        ? "worse"
        : "better"

const KIND_ORDER: ReadonlyArray<ChangeKind> = [
  "grade",
  "issue-opened",
  "issue-closed",
  "record",
  "blocklist",
  "certificate",
  "check"
]

const severityRank = (s: Severity) => Severities.indexOf(s)

/** Where the score lists a record (category, then rank); a record the registry lost sorts last. */
const RECORD_PLACE = new Map(specsOf(registry).map((s, i) => [s.id, i]))
const recordPlace = (c: Change) =>
  c.kind === "check" ? (RECORD_PLACE.get(recordIdOf(c)) ?? RECORD_PLACE.size) : 0

/** The keys a change sorts by, most significant first; the id last makes the order total. */
const keysOf = (c: Change): ReadonlyArray<number> => [
  PARTS.indexOf(partOf(c)),
  partOf(c) === "worse" ? severityRank(c.severity) : 0,
  partOf(c) === "no-longer-applies" ? Areas.indexOf(areaOf(recordIdOf(c))) : 0,
  KIND_ORDER.indexOf(c.kind),
  recordPlace(c)
]

const compare = (a: Change, b: Change): number => {
  const [ka, kb] = [keysOf(a), keysOf(b)]
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** The changes in the order every presentation reads them (above). */
export const orderChanges = (changes: ReadonlyArray<Change>): ReadonlyArray<Change> =>
  [...changes].sort(compare)
