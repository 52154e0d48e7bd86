/**
 * A diff as people read it: one line per change in the diff's order (DiffOrder.ts), except that
 * the checks of one area that no longer apply are one line ("The web site went away: 11 web checks
 * no longer apply."), with the checks named in a field of their own. The history page, an alert's
 * summaries and e-mail and the evidence's markdown show these lines; the JSON keeps every change.
 * Pure.
 */
import { registry } from "../checks/index.ts"
import type { Severity } from "../kernel/Status.ts"
import { recordTitle } from "../report/ReportText.ts"
import { specsOf } from "../score/Rules.ts"
import type { Change } from "./Change.ts"
import { type Area, areaOf, isFoundation } from "./CheckAreas.ts"
import { noLongerApplies, orderChanges, recordIdOf } from "./DiffOrder.ts"
import { changeSentence, groupSentence } from "./DiffText.ts"
import type { Lang } from "../score/Nis2Text.ts"

export interface DiffLine {
  readonly severity: Severity
  /** One sentence, starting with a capital and ending with a full stop. */
  readonly summary: string
  /** The ids of the changes the line stands for: one, or each check of a group. */
  readonly ids: ReadonlyArray<string>
  /** The titles of the checks a group stands for, in order; empty for a line of one change. */
  readonly checks: ReadonlyArray<string>
}

const titles = new Map(specsOf(registry).map((s) => [s.id, s.title]))
const titleOf = (change: Change, lang: Lang) => {
  const id = recordIdOf(change)
  return recordTitle(id, titles.get(id) ?? id, lang)
}

/**
 * "The web site went away: 11 web checks no longer apply." when the group shows why; otherwise
 * "No longer applicable: 3 DNSSEC checks." (a sentence does not start with a numeral).
 */
const groupLine = (area: Area, group: ReadonlyArray<Change>, othersToo: boolean, lang: Lang): DiffLine => {
  const gone = area.goneSentence !== undefined && group.some((c) => isFoundation(recordIdOf(c)))
  return {
    severity: "info",
    summary: groupSentence(area, group.length, gone, othersToo, lang),
    ids: group.map((c) => c.id),
    checks: group.map((c) => titleOf(c, lang))
  }
}

const single = (change: Change, lang: Lang): DiffLine => ({
  severity: change.severity,
  summary: changeSentence(change, lang),
  ids: [change.id],
  checks: []
})

/**
 * The lines of a diff, in its order. The checks that no longer apply become one line per area when
 * an area has two or more; a single one keeps its own sentence, which names it. In `lang`
 * (DiffText.ts: Dutch for the grade, checks, issues and groups).
 */
export const diffLines = (changes: ReadonlyArray<Change>, lang: Lang = "en"): ReadonlyArray<DiffLine> => {
  const ordered = orderChanges(changes)
  const gone = ordered.filter(noLongerApplies)
  const groups = new Map<Area, Array<Change>>()
  for (const c of gone) {
    const area = areaOf(recordIdOf(c))
    groups.set(area, [...(groups.get(area) ?? []), c])
  }
  const othersToo = groups.size > 1
  const lines: Array<DiffLine> = []
  for (const c of ordered) {
    if (!noLongerApplies(c)) lines.push(single(c, lang))
    else {
      const group = groups.get(areaOf(recordIdOf(c)))!
      // The group's line stands where its first check stands (DiffOrder keeps a group together).
      if (group.length === 1) lines.push(single(c, lang))
      else if (group[0] === c) lines.push(groupLine(areaOf(recordIdOf(c)), group, othersToo, lang))
    }
  }
  return lines
}

/** A line as one sentence of plain text, the grouped checks named in brackets. */
export const lineText = (line: DiffLine): string =>
  line.checks.length === 0 ? line.summary : `${line.summary.replace(/\.$/, "")} (${line.checks.join(", ")}).`
