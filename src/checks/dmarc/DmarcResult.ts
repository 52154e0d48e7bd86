/**
 * The result of the DMARC check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"
import { DmarcPolicy, DmarcSyntaxError, DmarcTag } from "../../records/DmarcRecord.ts"
import { Nullable, Strings } from "../../records/Schemas.ts"

export const DmarcFinding = Schema.Struct({
  id: Schema.String,
  severity: Schema.Literal("error", "warning", "info"),
  message: Schema.String
})
export type DmarcFinding = typeof DmarcFinding.Type

export const ReportDestination = Schema.Struct({
  kind: Schema.Literal("rua", "ruf"),
  uri: Schema.String,
  domain: Nullable(Schema.String),
  /** True when the destination's organisational domain differs from the policy domain's. */
  external: Schema.Boolean,
  /** External only: true authorised, false not authorised, null could not be determined. */
  authorised: Nullable(Schema.Boolean),
  verificationName: Nullable(Schema.String),
  maxBytes: Nullable(Schema.Finite)
})
export type ReportDestination = typeof ReportDestination.Type

const Alignment = Schema.Literal("relaxed", "strict")

export const DmarcResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  valid: Schema.Boolean,
  /** Absent when no record applies. */
  record: Schema.optional(Schema.String),
  policy: Schema.optional(DmarcPolicy),
  subdomainPolicy: Schema.optional(DmarcPolicy),
  /** DMARCbis `np`: policy for non-existent subdomains (defaults to sp, then p). */
  nonExistentSubdomainPolicy: Schema.optional(DmarcPolicy),
  /** The policy a receiver applies to mail from `domain` itself (sp when inherited). */
  effectivePolicy: Schema.optional(DmarcPolicy),
  pct: Schema.optional(Schema.Int),
  percentage: Schema.optional(Schema.Int),
  reportingEnabled: Schema.Boolean,
  rua: Strings,
  ruf: Strings,
  adkim: Schema.optional(Alignment),
  aspf: Schema.optional(Alignment),
  failureOptions: Schema.optional(Strings),
  testing: Schema.optional(Schema.Boolean),
  issues: Strings,
  warnings: Strings,
  findings: Schema.Array(DmarcFinding),
  /** Syntax errors; `position` is the 0-based character offset in the record. */
  errors: Schema.Array(DmarcSyntaxError),
  tags: Schema.Array(DmarcTag),
  /** The name the record was read from, e.g. `_dmarc.example.com`; null when none applies. */
  source: Nullable(Schema.String),
  /** True when `domain` has no record and the organisational domain's record applies. */
  inherited: Schema.Boolean,
  organisationalDomain: Schema.String,
  reportDestinations: Schema.Array(ReportDestination)
})
export type DmarcResult = typeof DmarcResult.Type
