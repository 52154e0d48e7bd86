/** The web group: security headers (analyse and generate) and the CSP crawler. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { CspScanResult } from "../checks/csp/CspResult.ts"
import { HeadersResult } from "../checks/headers/Headers.ts"
import { GenerateRequest, GenerateResult } from "../records/SecurityHeaders.ts"
import { DomainQuery } from "./Domain.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "./Errors.ts"

/** The generator's own request schema: presets, and per-header booleans, strings or objects. */
export const HeadersGenerateRequest = GenerateRequest

export const CspScanRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  strict: Schema.optional(Schema.Boolean)
})

export class WebApi extends HttpApiGroup.make("web")
  .add(
    HttpApiEndpoint.get("headersAnalyze", "/security-headers/analyze")
      .setUrlParams(DomainQuery)
      .addSuccess(HeadersResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("headersGenerate", "/security-headers/generate")
      .setPayload(HeadersGenerateRequest)
      .addSuccess(GenerateResult)
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
