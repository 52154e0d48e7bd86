/**
 * POST /debug-email: why might this message land in spam? Authentication (Authenticate.ts), the
 * header analysis (HeaderAnalysis.ts) and a SpamAssassin-style header score (SpamRules.ts) of one
 * pasted message. Nothing of the message is stored or logged: it lives for the request only, and
 * failures are reported without its text (docs/debug-email.md).
 */
import { HttpApiSchema } from "@effect/platform"
import { Effect, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { authenticate } from "./Authenticate.ts"
import { analyseHeaders } from "./HeaderAnalysis.ts"
import { authorDomain, type Message, parseMessage } from "./Message.ts"
import { organisationalDomainOf } from "../records/DmarcRecord.ts"
import { spamScore } from "./SpamRules.ts"
import { type AuthVerdicts, dkimStatus } from "./Verdicts.ts"

export const DebugEmailResult = Schema.Struct({
  spf: Schema.Struct({ status: Schema.String, details: Schema.String, aligned: Schema.Boolean }),
  dkim: Schema.Struct({
    status: Schema.String,
    aligned: Schema.Boolean,
    /** Every DKIM-Signature, in header order (an extension of the contract's fields). */
    signatures: Schema.Array(
      Schema.Struct({
        domain: Schema.String,
        selector: Schema.String,
        status: Schema.String,
        aligned: Schema.Boolean,
        details: Schema.NullOr(Schema.String)
      })
    )
  }),
  dmarc: Schema.Struct({
    status: Schema.String,
    alignment: Schema.Struct({ spf: Schema.Boolean, dkim: Schema.Boolean }),
    /** The policy that applies to the From domain: what a receiver does with a failing message. */
    policy: Schema.NullOr(Schema.Literal("none", "quarantine", "reject")),
    details: Schema.String
  }),
  arc: Schema.Struct({ status: Schema.String, details: Schema.String }),
  spamScore: Schema.Struct({
    score: Schema.Finite,
    threshold: Schema.Finite,
    rules: Schema.Array(
      Schema.Struct({ name: Schema.String, score: Schema.Finite, description: Schema.String })
    )
  }),
  headerAnalysis: Schema.Struct({
    issues: Schema.Array(Schema.String),
    warnings: Schema.Array(Schema.String)
  }),
  suggestions: Schema.Array(
    Schema.Struct({
      issue: Schema.String,
      fix: Schema.String,
      priority: Schema.Literal("high", "medium", "low")
    })
  )
})
export type DebugEmailResult = typeof DebugEmailResult.Type

/** The pasted message is over DEBUG_EMAIL_MAX_BYTES: the spec's 413. */
export class EmailTooLarge extends Schema.TaggedError<EmailTooLarge>()(
  "EmailTooLarge",
  { error: Schema.String },
  HttpApiSchema.annotations({ status: 413, description: "raw_email is larger than DEBUG_EMAIL_MAX_BYTES" })
) {}

/** mailauth could not read the message at all: the spec's 400. */
export class EmailUnreadable extends Schema.TaggedError<EmailUnreadable>()(
  "EmailUnreadable",
  { error: Schema.String },
  HttpApiSchema.annotations({ status: 400, description: "raw_email could not be read as a message" })
) {}

const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 } as const

/**
 * Alignment with the From domain. When DMARC was evaluated, its verdict (which honours the record's
 * strict or relaxed modes); otherwise relaxed alignment, DMARC's default (RFC 7489 3.1).
 */
const alignment = (message: Message, auth: AuthVerdicts) => {
  if (auth.dmarc.result === "pass" || auth.dmarc.result === "fail")
    return { spf: auth.dmarc.spfAligned, dkim: auth.dmarc.dkimAligned }
  const author = authorDomain(message)
  const aligned = (domain: string | undefined) =>
    author !== undefined &&
    domain !== undefined &&
    organisationalDomainOf(domain) === organisationalDomainOf(author)
  return {
    spf: auth.spf.result === "pass" && aligned(auth.spf.domain),
    dkim: auth.dkim.some((s) => s.result === "pass" && aligned(s.domain))
  }
}

/** The answer for a parsed message and what authenticating it found: pure, so its example is computed too. */
export const reportOf = (message: Message, auth: AuthVerdicts): DebugEmailResult => {
  const findings = analyseHeaders(message, auth)
  const aligned = alignment(message, auth)
  const result: DebugEmailResult = {
    spf: { status: auth.spf.result, details: auth.spf.details, aligned: aligned.spf },
    dkim: {
      status: dkimStatus(auth.dkim),
      aligned: aligned.dkim,
      signatures: auth.dkim.map((s) => ({
        domain: s.domain,
        selector: s.selector,
        status: s.result,
        aligned: s.aligned,
        details: s.comment ?? null
      }))
    },
    dmarc: {
      status: auth.dmarc.result,
      alignment: { spf: auth.dmarc.spfAligned, dkim: auth.dmarc.dkimAligned },
      policy: auth.dmarc.policy ?? null,
      details: auth.dmarc.details
    },
    arc: { status: auth.arc.result, details: auth.arc.details },
    spamScore: spamScore({ message, auth }),
    headerAnalysis: {
      issues: findings.filter((f) => f.level === "issue").map((f) => f.text),
      warnings: findings.filter((f) => f.level === "warning").map((f) => f.text)
    },
    suggestions: findings
      .flatMap((f) => (f.fix === undefined ? [] : [{ issue: f.text, fix: f.fix, priority: f.priority }]))
      .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority])
  }
  return result
}

export const debugEmail = (raw: string) =>
  Effect.gen(function* () {
    const { debugEmailMaxBytes } = yield* AppConfig
    const bytes = Buffer.byteLength(raw, "utf8")
    if (bytes > debugEmailMaxBytes)
      return yield* new EmailTooLarge({
        error: `raw_email is ${bytes} bytes; the limit is ${debugEmailMaxBytes} bytes (headers and text are what matter: drop large attachments)`
      })
    const message = parseMessage(raw)
    if (message.fields.length === 0)
      return yield* new EmailUnreadable({
        error: "raw_email has no header fields: paste the full message source, headers included"
      })
    const auth = yield* authenticate(raw, message).pipe(
      Effect.catchTag("AuthenticationFailed", (e) =>
        Effect.fail(new EmailUnreadable({ error: `the message could not be authenticated (${e.reason})` }))
      )
    )
    return reportOf(message, auth)
  }).pipe(Effect.withSpan("DebugEmail"))
