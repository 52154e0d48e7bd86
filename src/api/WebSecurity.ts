/** The web group: security headers (analyse and generate), the CSP crawler and security.txt. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { CspScanResult } from "../checks/csp/CspResult.ts"
import { HeadersResult } from "../checks/headers/Headers.ts"
import { WebTlsResult } from "../checks/web-tls/WebTls.ts"
import { SecurityTxtResult } from "../checks/security-txt/SecurityTxt.ts"
import { GenerateRequest, GenerateResult } from "../records/SecurityHeaders.ts"
import { DomainQuery } from "./Domain.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "./Errors.ts"
import { documented } from "./Docs.ts"
import { cheap } from "./Cost.ts"

/** The generator's own request schema: presets, and per-header booleans, strings or objects. */
export const HeadersGenerateRequest = GenerateRequest

export const CspScanRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(2048)),
  strict: Schema.optional(Schema.Boolean)
})

export class WebApi extends HttpApiGroup.make("web")
  .add(
    HttpApiEndpoint.get("headersAnalyze", "/security-headers/analyze")
      .annotateContext(
        documented(
          "Analyse the web site's security headers",
          "Fetches the site over HTTPS and judges HSTS, Content-Security-Policy, X-Content-Type-Options, framing protection, Referrer-Policy and the other security headers, with a grade. If the fetch times out, every header is unknown (never missing)."
        )
      )
      .setUrlParams(DomainQuery)
      .addSuccess(HeadersResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("headersGenerate", "/security-headers/generate")
      .annotateContext(cheap)
      .annotateContext(
        documented(
          "Generate security headers",
          "Builds recommended security headers from a preset (recommended, strict or report-only) or a per-header configuration, as header values and as nginx, Apache and Caddy configuration. Makes no network calls."
        )
      )
      .setPayload(HeadersGenerateRequest)
      .addSuccess(GenerateResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("cspScan", "/csp/scan")
      .annotateContext(
        documented(
          "Crawl a site and suggest a Content-Security-Policy",
          "Crawls up to 20 same-origin pages within 45 seconds, records the sources each page loads, judges the current policy and suggests one that allows exactly those sources. Results are cached per origin for 10 minutes; 502 with inconclusive when no page could be crawled."
        )
      )
      .setPayload(CspScanRequest)
      .addSuccess(CspScanResult)
      .addError(BadRequest)
      .addError(TooManyRequests)
      .addError(Inconclusive)
  )
  .add(
    HttpApiEndpoint.get("webTls", "/web/tls")
      .annotateContext(
        documented(
          "Probe the web site's TLS configuration",
          "For every address (IPv4 and IPv6) of the domain and its www. host: which TLS versions are accepted (1.0 to 1.3, each probed on its own), which cipher suites and in what order, the key exchange, the certificate chain (trust, names, expiry, key, signature) and OCSP stapling, each rated good / sufficient / phase-out / insufficient by the NCSC-NL TLS guidelines. An address that does not answer is unknown, never rated; SSL 3 is untested (this client cannot speak it)."
        )
      )
      .setUrlParams(DomainQuery)
      .addSuccess(WebTlsResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("securityTxt", "/web/security-txt")
      .annotateContext(
        documented(
          "Check the domain's security.txt",
          "Fetches https://<domain>/.well-known/security.txt (RFC 9116), and the legacy /security.txt when that has none, and judges it: Contact and Expires present, Expires in the future and under a year away, https URIs, served as text/plain, Canonical listing the URL it was fetched from, no redirect to another host, and the OpenPGP signature when signed (well formed, then verified with the key published at an https Encryption URL or in the Web Key Directory of a mailto contact, and that key's expiry; a key not found is unknown). A timeout is unknown, never missing."
        )
      )
      .setUrlParams(DomainQuery)
      .addSuccess(SecurityTxtResult)
      .addError(BadRequest)
  ) {}
