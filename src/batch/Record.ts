/**
 * What the batch scanner writes for a domain, and how: one record per domain, in either format.
 *
 * - JSONL: the record encoded through its Schema (the scan as `scan/Scanner.ts` declares it, the
 *   score as `score/Score.ts` does), `domain` first so that resuming can read it without parsing
 *   the line (`Resume.ts`).
 * - CSV: one flat row, columns `csvColumns` (docs/batch.md explains each).
 */
import { Schema } from "effect"
import { Categories, type Registered } from "../kernel/Check.ts"
import type { Column } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import type { RecordStatus } from "../score/Model.ts"
import { ScanDepth } from "../kernel/Depth.ts"
import { ScanResult } from "../scan/ScanResult.ts"
import { NormalDomain } from "../records/DomainName.ts"
import { ScanScore } from "../score/Score.ts"
import { csvRecord } from "./Csv.ts"
import { encoderOf } from "./Encode.ts"

/**
 * The word a domain's result goes by: its grade, or `unscannable` when it could not be graded (it
 * does not exist, or no DNS question about it was answered), as the API's `unscannable` and the
 * badge say; never an F that reads like a bad configuration.
 */
export type Verdict = ScanScore["grade"] | "unscannable"
export const verdictOf = (score: Pick<ScanScore, "grade" | "unscannable">): Verdict =>
  score.unscannable !== null ? "unscannable" : score.grade

/** A domain scanned and scored. */
export const BatchResult = Schema.Struct({ domain: NormalDomain, scan: ScanResult, score: ScanScore })
export type BatchResult = typeof BatchResult.Type

/**
 * A domain whose scan could not run at all (a defect, logged): written so that the list completes,
 * with the depth it was to be scanned at (absent: full).
 */
export const BatchFailure = Schema.Struct({
  domain: NormalDomain,
  depth: Schema.optional(ScanDepth),
  error: Schema.String
})
export type BatchFailure = typeof BatchFailure.Type

export type BatchRecord = BatchResult | BatchFailure

export const isFailure = (record: BatchRecord): record is BatchFailure => "error" in record

export const Formats = ["jsonl", "csv"] as const
export type Format = (typeof Formats)[number]

// A scan's record is large and built by our own code: encoded without checking it again (Encode.ts).
const encodeResult = encoderOf(BatchResult)
const encodeFailure = Schema.encodeSync(BatchFailure)

/**
 * The depth `record` was scanned at (kernel/Depth.ts): its scan's, or its failure's; `full` for one
 * that says none (a full scan, or a record written before depths existed).
 */
export const depthOf = (record: BatchRecord): ScanDepth =>
  (isFailure(record) ? record.depth : record.scan.depth) ?? "full"

/**
 * One JSONL line (with its LF). JSON escapes every control character, so a record is one line.
 * Every record says its depth second, after the domain, where resuming reads both (`Resume.ts`).
 */
export const jsonLine = (record: BatchRecord): string => JSON.stringify(encodedRecord(record)) + "\n"

/** A record as its JSONL line holds it: encoded through its Schema, its domain and depth first. */
export const encodedRecord = (
  record: BatchRecord
): { readonly domain: string; readonly depth: ScanDepth } => {
  if (isFailure(record)) {
    const { domain, error } = encodeFailure(record)
    const failure = { domain, depth: depthOf(record), error }
    return failure
  }
  const { domain, ...rest } = encodeResult(record)
  return { domain, depth: depthOf(record), ...rest }
}

/**
 * The verdict columns of the CSV over `checks`, as each check declares them (`about.columns`, placed
 * by rank): each is the worst status among the score's records it names (docs/scoring.md lists the
 * records), so "pass" means every one of them passed.
 */
export const verdictColumns = (checks: ReadonlyArray<Registered> = registry): ReadonlyArray<Column> =>
  checks.flatMap((c) => c.about.columns).sort((a, b) => a.rank - b.rank)

// Worst first: a failure outweighs not knowing, which outweighs a partial pass.
const SEVERITY: ReadonlyArray<RecordStatus> = ["fail", "unknown", "partial", "pass", "not-applicable"]

/** The worst of `statuses` ("" when the score has none of those records). */
export const worstStatus = (statuses: ReadonlyArray<RecordStatus>): RecordStatus | "" =>
  statuses.length === 0
    ? ""
    : statuses.reduce((worst, s) => (SEVERITY.indexOf(s) < SEVERITY.indexOf(worst) ? s : worst))

/** The CSV's columns over `checks` (docs/batch.md explains each). */
export const csvColumns = (checks: ReadonlyArray<Registered> = registry): ReadonlyArray<string> => [
  "domain",
  "grade",
  "score",
  ...Categories.map((c) => `${c}_score`),
  ...verdictColumns(checks).map((c) => c.name),
  "critical_issues",
  "warnings",
  "issues",
  "unknown_checks",
  "computed_at",
  // The depth the domain was scanned at: what it left out is not checked (docs/batch.md "Depth").
  "depth",
  // Why the scan could not grade the domain (it does not exist): the score's `unscannable`.
  "unscannable",
  "error"
]

export const CSV_COLUMNS = csvColumns()

/**
 * The score records of `record` that could not be judged because a question went unanswered (a
 * lookup that failed, a server that did not answer in time, a check that ran out of its budget):
 * the `unknown_checks` column and the summary's "with unknown checks". The scan's own outcomes do
 * not say it: a check that ran to its end is `done` even when what it asked timed out inside it (an
 * MX whose banner never came), and its records carry that as `unknown`. One `unknown` is not a
 * missing answer: a check declares the ones that are answers (`about.settledUnknowns`; DKIM with
 * no key under the selectors we know, for selectors cannot be listed, RFC 6376 3.6.2.1): every
 * question was answered, so they are not counted.
 */
export const unansweredRecords = (
  record: BatchResult,
  checks: ReadonlyArray<Registered> = registry
): ReadonlyArray<string> => {
  const outcomes: Readonly<Record<string, { readonly result: unknown } | undefined>> = record.scan.checks
  const settled = new Set(
    checks.flatMap((c) => {
      const result = outcomes[c.id]?.result
      return c.about.settledUnknowns === undefined || result == null ? [] : c.about.settledUnknowns(result)
    })
  )
  return Categories.flatMap((c) => record.score.categories[c].checks)
    .filter((r) => r.status === "unknown" && !settled.has(r.id))
    .map((r) => r.id)
}

/** The CSV header record. */
export const csvHeader = (checks: ReadonlyArray<Registered> = registry): string =>
  csvRecord(csvColumns(checks))

/** One CSV row: the columns of `csvColumns(checks)`, in that order. */
export const csvRow = (record: BatchRecord, checks: ReadonlyArray<Registered> = registry): string => {
  if (isFailure(record)) {
    const columns = csvColumns(checks)
    const row = columns.map(() => "")
    row[0] = record.domain
    row[columns.indexOf("depth")] = depthOf(record)
    row[row.length - 1] = record.error
    return csvRecord(row)
  }
  const { scan, score } = record
  const statusOf = new Map(
    Categories.flatMap((c) => score.categories[c].checks.map((r) => [r.id, r.status] as const))
  )
  const verdict = (ids: ReadonlyArray<string>) =>
    worstStatus(ids.flatMap((id) => (statusOf.has(id) ? [statusOf.get(id)!] : [])))
  return csvRecord([
    record.domain,
    verdictOf(score),
    String(score.score),
    ...Categories.map((c) => String(score.categories[c].score)),
    ...verdictColumns(checks).map((c) => verdict(c.records)),
    String(score.critical_issues),
    String(score.warnings),
    score.issues.map((issue) => issue.id).join(" "),
    unansweredRecords(record, checks).join(" "),
    scan.computedAt,
    depthOf(record),
    score.unscannable ?? "",
    ""
  ])
}

/** A record in `format`, ready to append. */
export const formatRecord = (format: Format, record: BatchRecord): string =>
  format === "csv" ? csvRow(record) : jsonLine(record)
