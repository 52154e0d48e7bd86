/** The ai group: explanations, fixes and raw-email debugging (treated as costly; may 429). */
import { HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Source } from "../ai/Explain.ts"
import { findingIds } from "../ai/Knowledge.ts"
import { PreviewedFixAnswer } from "../ai/FixPreview.ts"
import { issueIds } from "../score/Catalogue.ts"
import { Guidance } from "../score/Guidance.ts"
import { Open } from "./Common.ts"
import { Domain } from "./Domain.ts"
import { BadRequest, TooManyRequests } from "./Errors.ts"
import { DebugEmailResult, EmailTooLarge, EmailUnreadable } from "../mail/DebugEmail.ts"
import { Endpoint } from "./Docs.ts"

/**
 * An id of the issue catalogue (docs/issues.md), or a finding id an SPF or DMARC result shows;
 * kebab-case and upper case are accepted too.
 */
const IssueType = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
  description: `An id of the issue catalogue (docs/issues.md): ${issueIds.join(", ")}; or a finding id of an SPF or DMARC result (findings[].id): ${Object.keys(findingIds).join(", ")}`
})

export const ExplainRequest = Schema.Struct({
  issue_type: IssueType,
  context: Schema.optional(Open)
})

export const ExplainResponse = Schema.Struct({
  success: Schema.Boolean,
  explanation: Schema.String,
  severity: Schema.Literal("low", "medium", "high", "critical"),
  impact: Schema.String,
  recommendation: Schema.String,
  /**
   * The issue's guidance (docs/guidance.md): why, steps, provider notes, record, generator,
   * sources; null for a finding that is information. `impact` is its why, `recommendation` its steps.
   */
  guidance: Schema.NullOr(Guidance),
  /** Which source answered: the offline knowledge base, or the configured model (docs/ai.md). */
  source: Source
})

export const FixRequest = Schema.Struct({
  issue: IssueType,
  domain: Domain,
  current_config: Schema.optional(Open)
})

/**
 * No length cap here: `DEBUG_EMAIL_MAX_BYTES` decides (413), and `MAX_BODY_BYTES` bounds the body
 * before it is decoded. A schema cap of its own would answer 400 for a size the operator allowed.
 */
export const DebugEmailRequest = Schema.Struct({
  raw_email: Schema.String.pipe(Schema.minLength(1))
})

const explain = Endpoint.post("explain", "/ai/explain", {
  summary: "Explain an issue",
  description:
    "Explains an issue of the catalogue (or a finding id of an SPF or DMARC result): why it matters, its severity and impact, and the guidance to resolve it (numbered steps, provider notes, the record, sources). With a model configured, the explanation is reworded for the given context; severity and guidance always come from the knowledge base."
})
  .setPayload(ExplainRequest)
  .addSuccess(ExplainResponse)
  .addError(BadRequest)
  .addError(TooManyRequests)

const fix = Endpoint.post("fix", "/ai/fix", {
  summary: "Propose a fix for an issue",
  description:
    "Builds the record that resolves an issue for the domain from what it publishes now, with the project's generators, and judges it with the check as if published. The records proposed are previewed (as POST /scan/preview does, over the live scan from the scan cache while it is fresh): compared says what publishing them does to the grade and the issues, or is null with comparedReason saying why they could not be previewed. DMARC enforcement is staged: reports first, then quarantine, then reject. Issues no record fixes answer success false with the guidance's steps."
})
  .setPayload(FixRequest)
  .addSuccess(PreviewedFixAnswer)
  .addError(BadRequest)
  .addError(TooManyRequests)

const debugEmail = Endpoint.post("debugEmail", "/debug-email", {
  summary: "Analyse a raw email",
  description:
    "Checks the SPF, DKIM, DMARC and ARC results of a raw message (headers and body), its header path and a spam score of its headers. The message is analysed in memory and not stored."
})
  .setPayload(DebugEmailRequest)
  .addSuccess(DebugEmailResult)
  .addError(BadRequest)
  .addError(EmailUnreadable)
  .addError(EmailTooLarge)
  .addError(TooManyRequests)

export class AiApi extends HttpApiGroup.make("ai").add(explain).add(fix).add(debugEmail) {}
