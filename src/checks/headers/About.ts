/** What the headers check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { HEADERS_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "webSecurity",
    title: "Web security",
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
    { measure: "e", record: HEADERS_SPECS.xcto.id, weight: 1, rank: 40 },
    { measure: "e", record: HEADERS_SPECS.frame.id, weight: 1, rank: 50 },
    { measure: "e", record: HEADERS_SPECS.referrer.id, weight: 1, rank: 60 },
    { measure: "e", record: HEADERS_SPECS.csp.id, weight: 2, rank: 70 },
    { measure: "h", record: HEADERS_SPECS.https.id, weight: 3, rank: 10 },
    { measure: "h", record: HEADERS_SPECS.hsts.id, weight: 2, rank: 20 }
  ],
  deepScans: ["web"]
}
