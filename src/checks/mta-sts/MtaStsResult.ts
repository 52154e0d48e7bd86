/**
 * The result of the MTA-STS check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"
import { IMPLICIT_DESCRIPTION } from "../../kernel/MailServers.ts"
import { StsPolicyFields } from "../../records/MtaStsPolicy.ts"
import { Nullable, Strings } from "../../records/Schemas.ts"
import { TlsRptResult } from "./TlsRpt.ts"

export const MxCoverage = Schema.Struct({ host: Schema.String, matchedBy: Nullable(Schema.String) })
export type MxCoverage = typeof MxCoverage.Type

export const MtaStsResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  policyId: Nullable(Schema.String),
  /** The policy file as parsed, with its text. */
  policy: Nullable(Schema.Struct({ ...StsPolicyFields, raw: Schema.String })),
  policyUrl: Schema.String,
  valid: Schema.Boolean,
  issues: Strings,
  warnings: Strings,
  fetch: Nullable(
    Schema.Struct({
      reachable: Schema.Boolean,
      httpStatus: Nullable(Schema.Int),
      contentType: Nullable(Schema.String),
      size: Nullable(Schema.Int),
      tlsAuthorized: Nullable(Schema.Boolean),
      tlsError: Nullable(Schema.String),
      error: Nullable(Schema.String)
    })
  ),
  mx: Schema.Struct({
    hosts: Strings,
    nullMx: Schema.Boolean,
    implicit: Schema.Boolean.annotations({ description: IMPLICIT_DESCRIPTION }),
    coverage: Schema.Array(MxCoverage),
    allCovered: Nullable(Schema.Boolean),
    error: Nullable(Schema.String)
  }),
  tlsRpt: TlsRptResult
})
export type MtaStsResult = typeof MtaStsResult.Type
