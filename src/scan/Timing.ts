/**
 * The critical path of a scan's fiber graph: the longest chain of checks that waited on each
 * other, each link counted by its own work. A check that needed another's result finishes no
 * sooner than that result's own critical path plus the work the check still did after receiving
 * it; work it did before (or while) waiting ran beside its dependency and is not on the chain. A
 * scan whose wall time is close to this figure lost nothing to scheduling or to asking the same
 * question twice; a much longer wall time points at a bottleneck outside the graph.
 */
import type { CheckTiming, ScanTrace } from "../kernel/Check.ts"

/** Total length of the union of intervals (overlapping ones count once). */
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

/** A check's own work from `fromMs` on: its running time less its waits (a running check counts until `nowMs`). */
export const ownWork = (t: CheckTiming, fromMs: number, nowMs: number): number => {
  const end = t.endMs > 0 ? t.endMs : nowMs
  const from = Math.max(fromMs, t.startMs)
  const waits = t.waits.map(([, a, b]) => [Math.max(a, from), Math.min(b, end)] as const)
  return Math.max(0, end - from - unionLength(waits))
}

export const criticalPath = (trace: ScanTrace, nowMs: number): number => {
  const memo = new Map<string, number>()
  const visit = (id: string, path: ReadonlySet<string>): number => {
    const t = trace.get(id)
    if (t === undefined || path.has(id)) return 0
    const known = memo.get(id)
    if (known !== undefined) return known
    const inner = new Set(path).add(id)
    const chains = t.waits.map(([dep, , received]) => visit(dep, inner) + ownWork(t, received, nowMs))
    const total = Math.max(ownWork(t, t.startMs, nowMs), ...chains)
    memo.set(id, total)
    return total
  }
  return Math.max(0, ...[...trace.keys()].map((id) => visit(id, new Set())))
}
