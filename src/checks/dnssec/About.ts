/** What the DNSSEC check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { DNSSEC_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "dnssec",
    title: "DNSSEC",
    rank: 30,
    sources: ["rfc4033", "rfc4034", "rfc4035", "rfc8624", "rfc9276"],
    facts: ["status", "signed", "valid", "state", "zone", "issues"],
    generator: null
  },
  columns: [{ name: "dnssec", rank: 50, records: [DNSSEC_SPECS.signed.id, DNSSEC_SPECS.valid.id] }],
  nis2: [
    { measure: "e", record: DNSSEC_SPECS.rrsig.id, weight: 2, rank: 10 },
    { measure: "e", record: DNSSEC_SPECS.algorithm.id, weight: 1, rank: 20 },
    { measure: "e", record: DNSSEC_SPECS.nsec3.id, weight: 1, rank: 30 },
    { measure: "h", record: DNSSEC_SPECS.signed.id, weight: 1, rank: 50 },
    { measure: "h", record: DNSSEC_SPECS.valid.id, weight: 2, rank: 60 }
  ],
  deepScans: []
}
