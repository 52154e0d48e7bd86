/** What the DNS records check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { DNS_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "dnsRecords",
    title: "DNS records",
    rank: 20,
    sources: ["rfc1034", "rfc1035", "rfc2182", "rfc8659"],
    facts: ["records", "outcomes", "resolver", "dnssecValidated"],
    generator: null
  },
  columns: [],
  nis2: [
    { measure: "c", record: DNS_SPECS.ns.id, weight: 2, rank: 10 },
    { measure: "c", record: DNS_SPECS.soa.id, weight: 1, rank: 20 },
    { measure: "c", record: DNS_SPECS.mx.id, weight: 1, rank: 30 },
    { measure: "d", record: DNS_SPECS.caa.id, weight: 1, rank: 10 }
  ],
  deepScans: []
}
