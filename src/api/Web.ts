/** The web group: security headers (analyse and generate) and the CSP crawler. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { CspScanResult } from "../checks/csp/CspResult.ts"
import { GenerateRequest } from "../generate/SecurityHeaders.ts"
import { DateTime, Strings } from "./Common.ts"
import { DomainQuery } from "./Domain.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "./Errors.ts"

const HeaderStatus = Schema.Literal("pass", "missing", "unknown")

export const HeadersOutputs = Schema.Struct({
  nginx: Schema.String,
  apache: Schema.String,
  caddy: Schema.String,
  cloudflare: Schema.String,
  headers: Schema.String,
  raw: Schema.String
})

/** One config value per generator key (the header value, or null when that header is off). */
export const HeadersConfigValues = Schema.Struct({
  hsts: Schema.NullOr(Schema.String),
  csp: Schema.NullOr(Schema.String),
  frameOptions: Schema.NullOr(Schema.String),
  contentTypeOptions: Schema.NullOr(Schema.String),
  referrerPolicy: Schema.NullOr(Schema.String),
  permissionsPolicy: Schema.NullOr(Schema.String),
  coop: Schema.NullOr(Schema.String),
  coep: Schema.NullOr(Schema.String),
  corp: Schema.NullOr(Schema.String)
})

export const HeadersAnalysis = Schema.Struct({
  domain: Schema.String,
  scannedAt: DateTime,
  url: Schema.String,
  finalUrl: Schema.NullOr(Schema.String),
  statusCode: Schema.NullOr(Schema.Int),
  httpsAvailable: Schema.Boolean,
  headerFetchTimedOut: Schema.Boolean,
  note: Schema.optional(Schema.String),
  fetchError: Schema.optional(Schema.String),
  current: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      present: Schema.Boolean,
      value: Schema.NullOr(Schema.String),
      status: HeaderStatus,
      rating: Schema.Literal("good", "weak", "ineffective", "absent", "unknown"),
      issues: Strings
    })
  ),
  missing: Strings,
  recommended: HeadersConfigValues,
  outputs: HeadersOutputs,
  warnings: Strings
})

/** The generator's own request schema: presets, and per-header booleans, strings or objects. */
export const HeadersGenerateRequest = GenerateRequest

export const HeadersGenerateResult = Schema.Struct({
  preset: Schema.NullOr(Schema.Literal("recommended", "strict", "report-only")),
  headers: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })),
  outputs: HeadersOutputs,
  warnings: Strings,
  config: HeadersConfigValues
})

export const CspScanRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  strict: Schema.optional(Schema.Boolean)
})

export class WebApi extends HttpApiGroup.make("web")
  .add(
    HttpApiEndpoint.get("headersAnalyze", "/security-headers/analyze")
      .setUrlParams(DomainQuery)
      .addSuccess(HeadersAnalysis)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("headersGenerate", "/security-headers/generate")
      .setPayload(HeadersGenerateRequest)
      .addSuccess(HeadersGenerateResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("cspScan", "/csp/scan")
      .setPayload(CspScanRequest)
      .addSuccess(CspScanResult)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .addError(Inconclusive)
  ) {}
