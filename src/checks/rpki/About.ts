/** What the RPKI check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { RpkiReport } from "./RpkiResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "rpki",
  title: "RPKI route-origin validation",
  category: "security",
  result: RpkiReport,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "rpki",
    title: "RPKI route-origin validation",
    titleNl: "RPKI-routeherkomstvalidatie",
    rank: 149,
    sources: ["rfc6811"],
    facts: ["description", "result"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["web", "mail"]
})
