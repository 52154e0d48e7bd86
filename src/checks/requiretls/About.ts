/** What the REQUIRETLS check declares besides gather and analyse (kernel/Declaration.ts). */
import type { About } from "../../kernel/Declaration.ts"
import { rfc } from "../../kernel/Source.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "requireTls",
    title: "REQUIRETLS",
    titleNl: "REQUIRETLS",
    rank: 105,
    sources: ["rfc8689", "rfc3207"],
    facts: ["status", "servers", "note"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["mail"],
  citations: Object.fromEntries([rfc(8689, "SMTP Require TLS option")])
}
