/** What the MTA-STS check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { MTA_STS_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "mtaSts",
    title: "MTA-STS and TLS reporting",
    rank: 90,
    sources: ["rfc8461", "rfc8460"],
    facts: ["status", "exists", "valid", "record", "policyId", "policyUrl", "warnings", "issues"],
    generator: null
  },
  columns: [{ name: "mta_sts", rank: 40, records: [MTA_STS_SPECS.mtaSts.id] }],
  nis2: [
    { measure: "b", record: MTA_STS_SPECS.tlsRpt.id, weight: 1, rank: 20 },
    { measure: "j", record: MTA_STS_SPECS.mtaSts.id, weight: 1, rank: 10 }
  ],
  deepScans: ["mail"]
}
