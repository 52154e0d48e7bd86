/** The web group: security headers (analyse and generate) and the CSP crawler. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { DateTime, Open, Strings } from "./Common.ts"
import { DomainQuery } from "./Domain.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "./Errors.ts"

export const HeadersAnalysis = Schema.Struct({
  domain: Schema.String,
  scannedAt: DateTime,
  httpsAvailable: Schema.Boolean,
  headerFetchTimedOut: Schema.Boolean,
  note: Schema.optional(Schema.String),
  current: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      present: Schema.Boolean,
      value: Schema.NullOr(Schema.String),
      status: Schema.Literal("pass", "missing", "unknown")
    })
  ),
  missing: Strings,
  recommended: Open,
  outputs: Open,
  warnings: Strings
})

const Toggle = Schema.Union(Schema.Boolean, Schema.String, Open)

export const HeadersGenerateRequest = Schema.Struct({
  preset: Schema.optional(Schema.Literal("recommended", "strict", "report-only")),
  config: Schema.optional(
    Schema.Struct({
      hsts: Schema.optional(Toggle),
      csp: Schema.optional(Toggle),
      frameOptions: Schema.optional(Toggle),
      contentTypeOptions: Schema.optional(Toggle),
      referrerPolicy: Schema.optional(Toggle),
      permissionsPolicy: Schema.optional(Toggle),
      coop: Schema.optional(Toggle),
      coep: Schema.optional(Toggle),
      corp: Schema.optional(Toggle)
    })
  )
})

export const HeadersGenerateResult = Schema.Struct({
  headers: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })),
  outputs: Schema.Struct({
    nginx: Schema.String,
    apache: Schema.String,
    caddy: Schema.String,
    cloudflare: Schema.String,
    headers: Schema.String,
    raw: Schema.String
  }),
  warnings: Strings
})

export const CspScanRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  strict: Schema.optional(Schema.Boolean)
})

export const CspScanResult = Schema.Struct({
  url: Schema.String,
  origin: Schema.String,
  pagesCrawled: Schema.Int,
  pagesFailed: Schema.Int,
  truncated: Schema.Boolean,
  currentCsp: Schema.Struct({ source: Schema.String, policy: Schema.String }),
  findings: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      severity: Schema.String,
      title: Schema.String,
      description: Schema.String,
      directive: Schema.String
    })
  ),
  inventory: Schema.Array(Schema.Struct({ directive: Schema.String, origins: Strings })),
  inlineScripts: Schema.Int,
  inlineStyles: Schema.Int,
  eventHandlerAttrs: Schema.Int,
  synthesis: Schema.Struct({ policyString: Schema.String, reportOnlyString: Schema.String, notes: Strings })
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
