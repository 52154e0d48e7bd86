/** What the SPF check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { SPF_SPECS, rules } from "./Rules.ts"
import { spfSectionExtra } from "./Section.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "spf",
    title: "SPF",
    rank: 50,
    sources: ["rfc7208"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "policy",
      "includes",
      "lookups",
      "lookupLimit",
      "voidLookups",
      "warnings",
      "issues"
    ],
    generator: "POST /email/spf/generate",
    extra: spfSectionExtra
  },
  columns: [{ name: "spf", rank: 10, records: [SPF_SPECS.spfValid.id, SPF_SPECS.spfPolicy.id] }],
  nis2: [
    { measure: "g", record: SPF_SPECS.spfValid.id, weight: 2, rank: 10 },
    { measure: "g", record: SPF_SPECS.spfPolicy.id, weight: 2, passAt: 0.75, rank: 20 }
  ],
  deepScans: ["mail"]
}
