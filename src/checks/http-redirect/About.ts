/** What the HTTP-to-HTTPS check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_WEB, item } from "../../kernel/Nis2Evidence.ts"
import { HttpRedirectResult } from "./HttpRedirectResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { HTTP_REDIRECT_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "http-redirect",
  title: "HTTP to HTTPS redirect",
  category: "security",
  result: HttpRedirectResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "httpRedirect",
    title: "HTTP to HTTPS",
    titleNl: "Van HTTP naar HTTPS",
    rank: 142,
    sources: ["rfc9110", "rfc6797"],
    facts: ["apex", "www", "wwwConsistent", "issues"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "h",
      record: HTTP_REDIRECT_SPECS.redirect.id,
      weight: 1,
      rank: 23,
      text: item(
        { en: "HTTP redirects to HTTPS", nl: "HTTP stuurt door naar HTTPS" },
        {
          en: "Plain HTTP redirects to HTTPS on the same host first.",
          nl: "Onversleuteld HTTP stuurt eerst door naar HTTPS op dezelfde host."
        },
        NO_WEB
      )
    }
  ],
  deepScans: ["web"]
})
