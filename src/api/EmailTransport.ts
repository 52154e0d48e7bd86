/**
 * Response schema of GET /email/sender-requirements (the other mail-transport endpoints serve the
 * schemas their checks declare, src/checks/{smtp-tls,fcrdns,blocklist}/).
 */
import { Schema } from "effect"
import { Status } from "./Common.ts"

const Requirement = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Status,
  googleRequired: Schema.Boolean,
  yahooRequired: Schema.Boolean,
  microsoftRequired: Schema.Boolean,
  description: Schema.String,
  detail: Schema.String,
  reference: Schema.String
})

const ProviderSummary = Schema.Struct({
  status: Schema.Literal("compliant", "non-compliant", "partial", "unknown"),
  required: Schema.Int,
  passed: Schema.Int,
  failed: Schema.Int
})

export const SenderRequirementsResult = Schema.Struct({
  domain: Schema.String,
  overallStatus: Schema.Literal("compliant", "non-compliant", "partial", "unknown", "not-applicable"),
  passedCount: Schema.Int,
  failedCount: Schema.Int,
  checks: Schema.Array(Requirement),
  summary: Schema.Struct({
    google: ProviderSummary,
    yahoo: ProviderSummary,
    microsoft: ProviderSummary,
    warningCount: Schema.Int,
    unknownCount: Schema.Int,
    notApplicableCount: Schema.Int,
    note: Schema.String
  })
})
