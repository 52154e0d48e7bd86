/**
 * A domain's record as the batch writes and counts it: the output text (a JSONL line or a CSV row)
 * and the few figures the progress and the summary need (failed, incomplete, grade, issue ids).
 *
 * In process, `toWritten` makes one from the record just scored. Through the cluster, the runner that
 * scanned the domain makes it and sends only this back (`ClusterChunks.ts`): the text is what the
 * batch writes as is, so the process that submits decodes no scan (a full result is ~50 KB,
 * and decoding it through its Schema cost more than the cluster's messages; docs/scale.md).
 */
import { Schema } from "effect"
import { Grade } from "../score/Model.ts"
import { NormalDomain } from "../records/DomainName.ts"
import {
  verdictOf,
  type BatchRecord,
  BatchFailure,
  BatchResult,
  type Format,
  formatRecord,
  isFailure,
  unansweredRecords
} from "./Record.ts"

export const Written = Schema.Struct({
  domain: NormalDomain,
  /** The record in the output's format, with its line end. */
  text: Schema.String,
  /** The scan could not run, or not one of its checks finished. */
  failed: Schema.Boolean,
  /** Some of its score could not be judged for a question that went unanswered. */
  incomplete: Schema.Boolean,
  /** null for a domain written as an `error`. */
  /** The grade, or `unscannable` (as the API's `unscannable` and the badge say it); null: failed. */
  grade: Schema.NullOr(Schema.Union(Grade, Schema.Literal("unscannable"))),
  /** The score's issue ids, for the summary's most common issues. */
  issues: Schema.Array(Schema.String)
})
export type Written = typeof Written.Type

/**
 * How a record counts in the progress and the summary: failed when the scan could not run or not
 * one of its checks finished; incomplete when some of its score could not be judged for an
 * unanswered question (`unansweredRecords`).
 */
export const outcomeOf = (record: BatchRecord) => {
  if (isFailure(record)) return { failed: true, incomplete: false }
  const failed = Object.values(record.scan.checks).every((o) => o.status === "unknown")
  return { failed, incomplete: !failed && unansweredRecords(record).length > 0 }
}

/** `record` as written in `format` (`text` given when the caller formatted it otherwise). */
export const toWritten = (
  record: BatchRecord,
  format: Format,
  text = formatRecord(format, record)
): Written => ({
  domain: record.domain,
  text,
  ...outcomeOf(record),
  grade: isFailure(record) ? null : verdictOf(record.score),
  issues: isFailure(record) ? [] : record.score.issues.map((issue) => issue.id)
})

const decodeResult = Schema.decodeUnknownSync(BatchResult)
const decodeFailure = Schema.decodeUnknownSync(BatchFailure)

/** The record back from a JSONL text (for `--compare` through the cluster: the only reader of it). */
export const recordOfLine = (text: string): BatchRecord => {
  const parsed = JSON.parse(text) as { error?: unknown }
  if (typeof parsed.error !== "string") return decodeResult(parsed)
  const { domain, error } = decodeFailure(parsed)
  return { domain, error }
}
