/** What the CAA check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { declared } from "../../kernel/Declaration.ts"
import { rfc } from "../../kernel/Source.ts"
import { CaaReport } from "./CaaResult.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "caa",
  title: "CAA and the certificates served",
  category: "security",
  result: CaaReport,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "caa",
    title: "CAA and the certificates served",
    titleNl: "CAA en de gebruikte certificaten",
    rank: 148,
    sources: ["rfc8659", "rfc8657", "rfc9495"],
    facts: ["description", "result"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["web", "mail"],
  citations: Object.fromEntries([
    rfc(8657, "CAA record extensions for account URI and ACME method binding"),
    rfc(9495, "CAA processing for email addresses")
  ]),
  // A malformed issuer value costs no points of its own: the issuer rule judges what it permits.
  findings: (r) => ((r.result.parameterProblems ?? []).length > 0 ? ["caa_parameter_syntax"] : [])
})
