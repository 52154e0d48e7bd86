/**
 * Why a report was refused, and the limits that refuse it. Reports come from strangers (DESIGN
 * principle 13): every refusal names the problem, so a sender's postmaster can act on the 400 or
 * the SMTP 5xx, and is counted by its kind (a bounded set: never the domain or the sender).
 */
import { Schema } from "effect"

/** What went wrong, as a bounded label: the HTTP status and the SMTP reply follow from it. */
export const RefusalKind = Schema.Literal(
  // the body or message is larger than allowed before decompression
  "too-large",
  // decompression would pass the size or ratio limit, or an archive holds too many entries
  "bomb",
  // a content type or an attachment that holds no report
  "unsupported",
  // not well-formed: truncated or broken XML, JSON, gzip or zip
  "malformed",
  // well-formed but forbidden: a DOCTYPE or an entity declaration
  "forbidden",
  // well-formed but not a report: a missing or invalid field, too many records
  "schema",
  // a report whose period ended before REPORTS_RETENTION: it would be deleted at once
  "expired"
)
export type RefusalKind = typeof RefusalKind.Type

export class ReportRefused extends Schema.TaggedError<ReportRefused>()("ReportRefused", {
  kind: RefusalKind,
  message: Schema.String
}) {}

export const refuse = (kind: RefusalKind, message: string) => new ReportRefused({ kind, message })

/** The limits every report passes, from AppConfig (docs/reports-in.md). */
export interface ReportLimits {
  /** The body (HTTP) or message (SMTP) as received. */
  readonly maxBytes: number
  /** The report once decompressed. */
  readonly maxUnpackedBytes: number
  /** Decompressed bytes per compressed byte; honest XML compresses 10-30 to 1. */
  readonly maxRatio: number
  /** Records of one DMARC report, or policies plus failure details of one TLS-RPT report. */
  readonly maxRecords: number
  /** Entries of one zip archive (a report zip holds one file). */
  readonly maxZipEntries: number
}

export const DEFAULT_LIMITS: ReportLimits = {
  maxBytes: 10_485_760,
  maxUnpackedBytes: 52_428_800,
  maxRatio: 200,
  maxRecords: 100_000,
  maxZipEntries: 16
}
