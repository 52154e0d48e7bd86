/** What the CAA check declares besides gather and analyse (kernel/Declaration.ts). */
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
    key: "caa",
    title: "CAA and the certificates served",
    titleNl: "CAA en de gebruikte certificaten",
    rank: 148,
    sources: ["rfc8659"],
    facts: ["description", "result"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["web", "mail"]
}
