/** What the headers check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_WEB, item } from "../../kernel/Nis2Evidence.ts"
import { HeadersResult } from "./HeadersResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { HEADERS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "headers",
  title: "Security headers",
  category: "security",
  result: HeadersResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "webSecurity",
    title: "Web security",
    titleNl: "Webbeveiliging",
    rank: 140,
    sources: ["rfc6797", "rfc7034", "csp3", "fetch_nosniff", "referrer_policy"],
    facts: [
      "url",
      "finalUrl",
      "statusCode",
      "httpsAvailable",
      "headerFetchTimedOut",
      "missing",
      "warnings",
      "note",
      "fetchError",
      "certificateError"
    ],
    generator: "POST /security-headers/generate"
  },
  columns: [],
  nis2: [
    {
      measure: "e",
      record: HEADERS_SPECS.xcto.id,
      weight: 1,
      rank: 40,
      text: item(
        { en: "X-Content-Type-Options header", nl: "X-Content-Type-Options-header" },
        { en: "The web site sends nosniff.", nl: "De website stuurt nosniff." },
        NO_WEB
      )
    },
    {
      measure: "e",
      record: HEADERS_SPECS.frame.id,
      weight: 1,
      rank: 50,
      text: item(
        { en: "Clickjacking protection", nl: "Bescherming tegen clickjacking" },
        {
          en: "X-Frame-Options or CSP frame-ancestors restricts framing.",
          nl: "X-Frame-Options of CSP frame-ancestors beperkt het insluiten in frames."
        },
        NO_WEB
      )
    },
    {
      measure: "e",
      record: HEADERS_SPECS.referrer.id,
      weight: 1,
      rank: 60,
      text: item(
        { en: "Referrer-Policy header", nl: "Referrer-Policy-header" },
        { en: "A safe Referrer-Policy is set.", nl: "Er is een veilige Referrer-Policy ingesteld." },
        NO_WEB
      )
    },
    {
      measure: "e",
      record: HEADERS_SPECS.csp.id,
      weight: 2,
      rank: 70,
      text: item(
        { en: "Content-Security-Policy", nl: "Content-Security-Policy" },
        {
          en: "An enforced, strong Content-Security-Policy.",
          nl: "Een afgedwongen, sterke Content-Security-Policy."
        },
        NO_WEB
      )
    },
    {
      measure: "h",
      record: HEADERS_SPECS.https.id,
      weight: 3,
      rank: 10,
      text: item(
        { en: "HTTPS with a trusted certificate", nl: "HTTPS met een vertrouwd certificaat" },
        {
          en: "The web site answers over HTTPS with a trusted certificate.",
          nl: "De website antwoordt via HTTPS met een vertrouwd certificaat."
        },
        NO_WEB
      )
    },
    {
      measure: "h",
      record: HEADERS_SPECS.hsts.id,
      weight: 2,
      rank: 20,
      text: item(
        { en: "HSTS (HTTPS enforced by browsers)", nl: "HSTS (HTTPS afgedwongen door browsers)" },
        {
          en: "Strict-Transport-Security of a year or more with includeSubDomains.",
          nl: "Strict-Transport-Security van een jaar of langer met includeSubDomains."
        },
        NO_WEB
      )
    }
  ],
  deepScans: ["web"]
})

/** Served alone: `GET /api/security-headers/analyze?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "web",
  name: "headersAnalyze",
  path: "/security-headers/analyze",
  summary: "Analyse the web site's security headers",
  description:
    "Fetches the site over HTTPS and judges HSTS, Content-Security-Policy, X-Content-Type-Options, framing protection, Referrer-Policy and the other security headers, with a grade. If the fetch times out, every header is unknown (never missing).",
  cost: "costly",
  example: "example.com: strong headers, no Permissions-Policy",
  rank: 10
}
