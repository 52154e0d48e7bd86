/** What the DANE check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { DANE_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "daneTlsa",
    title: "DANE / TLSA",
    rank: 40,
    sources: ["rfc6698", "rfc7672"],
    facts: ["status", "exists", "dnssecValidated", "tlsaDomain", "port", "protocol", "issues"],
    generator: "POST /dns/tlsa/generate"
  },
  columns: [],
  nis2: [{ measure: "j", record: DANE_SPECS.dane.id, weight: 1, rank: 20 }],
  deepScans: ["mail"]
}
