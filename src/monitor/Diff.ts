/**
 * What changed between two stored scans of a domain, in words its owner reads ("DMARC policy went
 * from reject to none"): the grade, each score record's status, the issues opened and closed, and
 * the facts of `DiffFacts.ts` (records, certificates, blocklist listings).
 *
 * Pure and total: both scans are scored here by the same rules (`score/Score.ts`), so a diff is a
 * function of the two stored scans alone. The diff of a scan with itself is empty, and swapping the
 * scans gives the same changes with `before` and `after` swapped and opened/closed exchanged
 * (test/monitor/diff.test.ts). Values are compared by their RFC 8785 canonical JSON.
 *
 * Two scans made by different registries (a check added or removed in between, StoredScan.ts) are
 * compared like with like: records and issues over the checks both scans ran, so that a check the
 * service added reads as no change of the domain. A record only one side judged is a `check` change
 * with `null` on the other side (`info`: the service changed, not the domain), and a grade that
 * moved only because of those checks is reported at `info`, never as a drop that alerts.
 */
import { Categories, type Registered } from "../kernel/Check.ts"
import { registry } from "../checks/index.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { checksRun, restrictTo } from "../scan/StoredScan.ts"
import type { Severity } from "../kernel/Status.ts"
import { canonicalJson } from "../report/Canonical.ts"
import { gradeRank } from "../score/Model.ts"
import type { RecordStatus } from "../score/Model.ts"
import { score, type ScanScore } from "../score/Score.ts"
import type { Change, Json } from "./Change.ts"
import { families, type Family } from "./DiffFacts.ts"
import { orderChanges } from "./DiffOrder.ts"

// A status is worse when it holds less: passing (or not applying) > partial > unanswered > failing.
const STATUS_RANK: Readonly<Record<RecordStatus, number>> = {
  pass: 4,
  "not-applicable": 4,
  partial: 2,
  unknown: 1,
  fail: 0
}

/**
 * The grade each scan has by its own checks (the entries' grades). `domainMoved` is false when the
 * grade over the checks both scans ran did not change: then only the checks did, and it is info.
 */
const gradeChanges = (before: ScanScore, after: ScanScore, domainMoved: boolean): ReadonlyArray<Change> => {
  if (before.grade === after.grade) return []
  const dropped = gradeRank(after.grade) < gradeRank(before.grade)
  const moved = `from ${before.grade} to ${after.grade} (${before.percentage}% to ${after.percentage}%)`
  return [
    {
      kind: "grade",
      id: "grade",
      before: before.grade,
      after: after.grade,
      severity: dropped && domainMoved ? "high" : "info",
      summary: domainMoved
        ? `The grade ${dropped ? "dropped" : "rose"} ${moved}.`
        : `The grade went ${moved} because the checks made changed, not the domain: over the checks both scans made it is the same.`
    }
  ]
}

const recordsOf = (s: ScanScore) =>
  new Map(Categories.flatMap((c) => s.categories[c].checks).map((r) => [r.id, r]))

/**
 * Records judged on one side only: a check the other scan did not make (added to the service since,
 * or removed from it). Ids sorted, so that swapping the scans lists the same ids in the same order.
 */
const coverageChanges = (before: ScanScore, after: ScanScore): ReadonlyArray<Change> => {
  const was = recordsOf(before)
  const is = recordsOf(after)
  const ids = [...new Set([...was.keys(), ...is.keys()])].filter((id) => was.has(id) !== is.has(id)).sort()
  return ids.map((id): Change => {
    const then = was.get(id)
    const now = is.get(id)
    return {
      kind: "check",
      id: `check/${id}`,
      before: then?.status ?? null,
      after: now?.status ?? null,
      severity: "info",
      summary:
        now !== undefined
          ? `The "${now.title}" check was not made then (the service has added it since); it now reads ${now.status}.`
          : `The "${then!.title}" check is no longer made (the service has removed it); it read ${then!.status}.`
    }
  })
}

const checkChanges = (before: ScanScore, after: ScanScore): ReadonlyArray<Change> => {
  const was = recordsOf(before)
  return [...recordsOf(after).values()].flatMap((now): ReadonlyArray<Change> => {
    const then = was.get(now.id)
    if (then === undefined || then.status === now.status) return []
    const worse = STATUS_RANK[now.status] < STATUS_RANK[then.status]
    const severity: Severity = !worse ? "info" : now.status === "fail" ? "medium" : "low"
    return [
      {
        kind: "check",
        id: `check/${now.id}`,
        before: then.status,
        after: now.status,
        severity,
        summary: `The "${now.title}" check went from ${then.status} to ${now.status}.`
      }
    ]
  })
}

const issueChanges = (before: ScanScore, after: ScanScore): ReadonlyArray<Change> => {
  const was = new Set(before.issues.map((i) => i.id))
  const now = new Set(after.issues.map((i) => i.id))
  const issueValue = (i: ScanScore["issues"][number]): Json => ({
    id: i.id,
    severity: i.severity,
    title: i.title
  })
  return [
    ...after.issues
      .filter((i) => !was.has(i.id))
      .map((i): Change => ({
        kind: "issue-opened",
        id: `issue/${i.id}`,
        before: null,
        after: issueValue(i),
        severity: i.severity,
        summary: `New issue: ${i.title}.`
      })),
    ...before.issues
      .filter((i) => !now.has(i.id))
      .map((i): Change => ({
        kind: "issue-closed",
        id: `issue/${i.id}`,
        before: issueValue(i),
        after: null,
        severity: "info",
        summary: `Resolved: ${i.title}.`
      }))
  ]
}

const same = (a: Json, b: Json) => canonicalJson(a) === canonicalJson(b)

const familyChanges = (family: Family, before: ScanResult, after: ScanResult): ReadonlyArray<Change> => {
  const then = family.read(before)
  const now = family.read(after)
  if (then === null || now === null) return []
  const unsure = new Set([...(then.unsure ?? []), ...(now.unsure ?? [])])
  const was = new Map(then.facts.map((f) => [f.id, f.value]))
  const is = new Map(now.facts.map((f) => [f.id, f.value]))
  // Ids sorted over both sides, so that swapping the scans lists the same ids in the same order.
  const ids = [...new Set([...then.facts, ...now.facts].map((f) => f.id))].sort()
  return ids.flatMap((id): ReadonlyArray<Change> => {
    if (unsure.has(id)) return []
    const b = was.get(id) ?? null
    const a = is.get(id) ?? null
    if (b !== null && a !== null && same(b, a)) return []
    if (family.bothOnly === true && (b === null || a === null)) return []
    return [{ kind: family.kind, id, before: b, after: a, ...family.word(id, b, a) }]
  })
}

/** Every change, in the order it is found; `diffScans` puts them in the order they are read. */
const unordered = (before: ScanResult, after: ScanResult): ReadonlyArray<Change> => {
  const [ranThen, ranNow] = [checksRun(before, registry), checksRun(after, registry)]
  const then = score(before, ranThen)
  const now = score(after, ranNow)
  if (ranThen.length === ranNow.length && ranThen.every((c) => ranNow.includes(c)))
    return [
      ...gradeChanges(then, now, true),
      ...checkChanges(then, now),
      ...issueChanges(then, now),
      ...families.flatMap((f) => familyChanges(f, before, after))
    ]
  // Different registries: both judged as if they had made only the checks both made, so that a
  // rule that reads a check one of them lacks reads it as not checked on both sides.
  const common: ReadonlyArray<Registered> = ranThen.filter((c) => ranNow.includes(c))
  const [was, is] = [restrictTo(before, common), restrictTo(after, common)]
  const [thenCommon, nowCommon] = [score(was, common), score(is, common)]
  return [
    ...gradeChanges(then, now, thenCommon.grade !== nowCommon.grade),
    ...checkChanges(thenCommon, nowCommon),
    ...coverageChanges(then, now),
    ...issueChanges(thenCommon, nowCommon),
    ...families.flatMap((f) => familyChanges(f, was, is))
  ]
}

/**
 * The changes from `before` to `after` (two scans of one domain, oldest first), in the order every
 * presentation reads them (DiffOrder.ts): the grade first, then what got worse by severity, then
 * the checks that no longer apply, then improvements.
 */
export const diffScans = (before: ScanResult, after: ScanResult): ReadonlyArray<Change> =>
  orderChanges(unordered(before, after))
