/** What the REQUIRETLS check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { RequireTlsResult } from "./RequireTlsResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { rfc } from "../../kernel/Source.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "requiretls",
  title: "REQUIRETLS",
  category: "security",
  result: RequireTlsResult,
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
})
