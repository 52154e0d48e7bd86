/** What the FCrDNS check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { FCRDNS_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "fcrdns",
    title: "Forward-confirmed reverse DNS",
    rank: 110,
    sources: ["rfc1912", "m3aawg"],
    facts: ["description", "result"],
    generator: null
  },
  columns: [],
  nis2: [
    { measure: "g", record: FCRDNS_SPECS.ptr.id, weight: 1, rank: 70 },
    { measure: "g", record: FCRDNS_SPECS.fcrdns.id, weight: 1, rank: 80 }
  ],
  deepScans: ["mail"]
}
