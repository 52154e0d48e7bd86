/** What the BIMI check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { BimiResult } from "./BimiResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "bimi",
  title: "BIMI",
  category: "email",
  result: BimiResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "bimi",
    title: "BIMI",
    titleNl: "BIMI",
    rank: 80,
    sources: ["bimi"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "logoUrl",
      "authorityUrl",
      "warnings",
      "issues",
      "trademarkNote"
    ],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["mail"],
  citations: {
    bimi: {
      title: "Brand Indicators for Message Identification (BIMI), IETF draft",
      url: "https://datatracker.ietf.org/doc/draft-brand-indicators-for-message-identification/"
    }
  }
})
