/** The ai group: explanations, fixes and raw-email debugging (treated as costly; may 429). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Open, Strings } from "./Common.ts"
import { Domain } from "./Domain.ts"
import { BadRequest, TooManyRequests } from "./Errors.ts"
import { DebugEmailResult, EmailTooLarge, EmailUnreadable } from "../mail/DebugEmail.ts"

export const ExplainRequest = Schema.Struct({
  issue_type: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  context: Schema.optional(Open)
})

export const ExplainResponse = Schema.Struct({
  success: Schema.Boolean,
  explanation: Schema.String,
  severity: Schema.Literal("low", "medium", "high", "critical"),
  impact: Schema.String,
  recommendation: Schema.String
})

export const FixRequest = Schema.Struct({
  issue: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  domain: Domain,
  current_config: Schema.optional(Open)
})

export const FixResponse = Schema.Struct({
  success: Schema.Boolean,
  fix: Schema.Struct({
    dns_record: Schema.String,
    record_type: Schema.String,
    value: Schema.String,
    explanation: Schema.String,
    steps: Strings
  })
})

export const DebugEmailRequest = Schema.Struct({
  raw_email: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1_000_000))
})

export class AiApi extends HttpApiGroup.make("ai")
  .add(
    HttpApiEndpoint.post("explain", "/ai/explain")
      .setPayload(ExplainRequest)
      .addSuccess(ExplainResponse)
      .addError(BadRequest)
      .addError(TooManyRequests)
  )
  .add(
    HttpApiEndpoint.post("fix", "/ai/fix")
      .setPayload(FixRequest)
      .addSuccess(FixResponse)
      .addError(BadRequest)
      .addError(TooManyRequests)
  )
  .add(
    HttpApiEndpoint.post("debugEmail", "/debug-email")
      .setPayload(DebugEmailRequest)
      .addSuccess(DebugEmailResult)
      .addError(BadRequest)
      .addError(EmailUnreadable)
      .addError(EmailTooLarge)
      .addError(TooManyRequests)
  ) {}
