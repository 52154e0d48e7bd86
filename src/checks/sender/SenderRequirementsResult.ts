/**
 * The result of the sender requirements check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"

export const RequirementCheck = Schema.Struct({
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
export type RequirementCheck = typeof RequirementCheck.Type

export const ProviderSummary = Schema.Struct({
  status: Schema.Literal("compliant", "non-compliant", "partial", "unknown"),
  required: Schema.Int,
  passed: Schema.Int,
  failed: Schema.Int
})
export type ProviderSummary = typeof ProviderSummary.Type

export const SenderRequirementsResult = Schema.Struct({
  domain: Schema.String,
  overallStatus: Schema.Literal("compliant", "non-compliant", "partial", "unknown", "not-applicable"),
  passedCount: Schema.Int,
  failedCount: Schema.Int,
  checks: Schema.Array(RequirementCheck),
  summary: Schema.Struct({
    google: ProviderSummary,
    yahoo: ProviderSummary,
    microsoft: ProviderSummary,
    warningCount: Schema.Int,
    unknownCount: Schema.Int,
    notApplicableCount: Schema.Int,
    note: Schema.String
  })
}).annotations({ identifier: "SenderRequirementsResult" })
export type SenderRequirementsResult = typeof SenderRequirementsResult.Type
