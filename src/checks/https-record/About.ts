/** What the HTTPS record check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { HttpsRecordResult } from "./HttpsRecordResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { rfc } from "../../kernel/Source.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "https-record",
  title: "HTTPS record",
  category: "dns",
  result: HttpsRecordResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "httpsRecord",
    title: "HTTPS record (SVCB)",
    titleNl: "HTTPS-record (SVCB)",
    rank: 144,
    sources: ["rfc9460"],
    facts: ["status", "chain", "echPresent", "consistent", "issues", "note"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["web"],
  citations: Object.fromEntries([
    rfc(9460, "Service binding and parameter specification via the DNS (SVCB and HTTPS resource records)")
  ])
})
