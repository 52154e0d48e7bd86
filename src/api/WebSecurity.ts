/**
 * The web group: security headers (analyse and generate), the CSP crawler, the web site's TLS and
 * security.txt. The checks served alone (headers, web TLS, security.txt) declare their endpoints in
 * their folders (ServedChecks.ts); the rest are declared here, each at its rank among them.
 */
import { Schema } from "effect"
import { CspScanResult } from "../checks/csp/CspResult.ts"
import { GenerateRequest, GenerateResult } from "../records/SecurityHeaders.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "./Errors.ts"
import { Endpoint } from "./Docs.ts"
import { cheap } from "./Cost.ts"
import { withServed } from "./ServedChecks.ts"

/** The generator's own request schema: presets, and per-header booleans, strings or objects. */
export const HeadersGenerateRequest = GenerateRequest

export const CspScanRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  strict: Schema.optional(Schema.Boolean)
})

const headersGenerate = Endpoint.post("headersGenerate", "/security-headers/generate", {
  summary: "Generate security headers",
  description:
    "Builds recommended security headers from a preset (recommended, strict or report-only) or a per-header configuration, as header values and as nginx, Apache and Caddy configuration. Makes no network calls."
})
  .annotateContext(cheap)
  .setPayload(HeadersGenerateRequest)
  .addSuccess(GenerateResult)
  .addError(BadRequest)

const cspScan = Endpoint.post("cspScan", "/csp/scan", {
  summary: "Crawl a site and suggest a Content-Security-Policy",
  description:
    "Crawls up to 20 same-origin pages within 45 seconds, records the sources each page loads, judges the current policy and suggests one that allows exactly those sources. Results are cached per origin for 10 minutes; 502 with inconclusive when no page could be crawled."
})
  .setPayload(CspScanRequest)
  .addSuccess(CspScanResult)
  .addError(BadRequest)
  .addError(TooManyRequests)
  .addError(Inconclusive)

export class WebApi extends withServed("web", [
  [20, headersGenerate],
  [30, cspScan]
]) {}
