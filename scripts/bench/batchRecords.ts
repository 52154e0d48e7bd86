/**
 * The records of batch runs compared domain by domain (`batch.ts --against=<ref> --compare`): each
 * record with its timings left out (they differ in every run), equal, equal but for the order of
 * keys or of an array's items, or different, with the paths where they differ most often. A list
 * that names a domain more than once (`againN.`) is compared by its last record. Two runs of the same code differ
 * too where a question went unanswered in one (a loaded machine): the ref's runs compared with each
 * other say how much.
 */
import { readFileSync } from "node:fs"

/**
 * What differs in every run: durations, instants, and ages (a DNS answer's TTL counted down, served
 * from a cache or not).
 */
const TIMINGS = new Set([
  "durationMs",
  "computedAt",
  "criticalPathMs",
  "timestamp",
  "checkedAt",
  "scannedAt",
  "elapsedMs",
  "lookupMs",
  "responseTime",
  "ttl",
  "cached"
])

export const withoutTimings = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(withoutTimings)
  if (v === null || typeof v !== "object") return v
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) if (!TIMINGS.has(k)) out[k] = withoutTimings(x)
  return out
}

/** `v` with its keys sorted, and its arrays too (a resolver rotates the records of an RRset). */
const sortedKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedKeys).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
    : v !== null && typeof v === "object"
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])])
        )
      : v

const records = (file: string) =>
  new Map(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => {
        const r = JSON.parse(l) as { domain: string }
        return [r.domain, withoutTimings(r)] as const
      })
  )

const differences = (a: unknown, b: unknown, path: string, out: Set<string>) => {
  if (JSON.stringify(a) === JSON.stringify(b)) return
  if (
    a !== null &&
    b !== null &&
    typeof a === "object" &&
    typeof b === "object" &&
    Array.isArray(a) === Array.isArray(b)
  )
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out)
  else out.add(path.replace(/\.\d+(?=\.|$)/g, "[]"))
}

/** One line: how the records of `b` compare with those of `a`, and where they differ most. */
export const compareRecords = (a: string, b: string): string => {
  const [left, right] = [records(a), records(b)]
  let equal = 0
  let reordered = 0
  let differ = 0
  const where = new Map<string, number>()
  for (const [domain, x] of left) {
    const y = right.get(domain)
    const [sx, sy] = [JSON.stringify(x), JSON.stringify(y)]
    if (sx === sy) equal++
    else if (y !== undefined && JSON.stringify(sortedKeys(x)) === JSON.stringify(sortedKeys(y))) reordered++
    else {
      differ++
      const paths = new Set<string>()
      differences(x, y, "", paths)
      for (const p of paths) where.set(p, (where.get(p) ?? 0) + 1)
    }
  }
  const most = [...where]
    .sort((p, q) => q[1] - p[1])
    .slice(0, 6)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ")
  return `${equal} equal, ${reordered} equal but for the order of keys or of an array's items, ${differ} differ${differ > 0 ? ` (most: ${most})` : ""}`
}

/** The ref's runs with its first, then each of this checkout's with the ref's first. */
export const comparedRuns = (
  ref: ReadonlyArray<{ readonly out: string }>,
  self: ReadonlyArray<{ readonly out: string }>
): ReadonlyArray<string> => [
  ...ref
    .slice(1)
    .map((r, i) => `records, ref run ${i + 2} / ref run 1: ${compareRecords(ref[0]!.out, r.out)}`),
  ...self.map((r, i) => `records, this run ${i + 1} / ref run 1: ${compareRecords(ref[0]!.out, r.out)}`)
]
