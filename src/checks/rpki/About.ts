/** What the RPKI check declares besides gather and analyse (kernel/Declaration.ts). */
import type { About } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about: About = {
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
}
