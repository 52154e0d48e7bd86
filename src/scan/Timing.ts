/**
 * The critical path of a scan's fiber graph: the longest chain of checks that waited on each
 * other, each counted by its own work (its duration less the time it spent awaiting the checks it
 * needs). A scan whose wall time is close to this figure lost nothing to scheduling or to asking
 * the same question twice; a much longer wall time points at a bottleneck outside the graph.
 */
import type { CheckTiming, ScanTrace } from "../checks/Check.ts"

/** Total length of the union of intervals (overlapping waits count once). */
export const unionLength = (intervals: ReadonlyArray<readonly [number, number]>): number => {
  const sorted = [...intervals].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])
  let total = 0
  let [start, end] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (const [a, b] of sorted) {
    if (a > end) {
      if (end > start) total += end - start
      ;[start, end] = [a, b]
    } else end = Math.max(end, b)
  }
  return end > start ? total + (end - start) : total
}

/** A check's own work: its duration less its waits; a check still running counts until `nowMs`. */
export const ownWork = (t: CheckTiming, nowMs: number): number => {
  const end = t.endMs > 0 ? t.endMs : nowMs
  return Math.max(0, end - t.startMs - unionLength(t.waits.map(([a, b]) => [a, Math.min(b, end)] as const)))
}

export const criticalPath = (trace: ScanTrace, nowMs: number): number => {
  const memo = new Map<string, number>()
  const visit = (id: string, path: ReadonlySet<string>): number => {
    const t = trace.get(id)
    if (t === undefined || path.has(id)) return 0
    const known = memo.get(id)
    if (known !== undefined) return known
    const inner = new Set(path).add(id)
    const longest = Math.max(0, ...[...t.needs].map((n) => visit(n, inner)))
    const total = ownWork(t, nowMs) + longest
    memo.set(id, total)
    return total
  }
  return Math.max(0, ...[...trace.keys()].map((id) => visit(id, new Set())))
}
