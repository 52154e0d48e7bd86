/** What the SMTP TLS check declares besides gather and analyse (checks/Declaration.ts). */
import type { About } from "../Declaration.ts"
import { advice, issues } from "./Issues.ts"
import { SMTP_TLS_SPECS, rules } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  section: {
    key: "smtpStarttls",
    title: "SMTP STARTTLS",
    rank: 100,
    sources: ["rfc3207", "rfc5321", "rfc9525"],
    facts: ["summary", "issues"],
    generator: null
  },
  columns: [{ name: "starttls", rank: 60, records: [SMTP_TLS_SPECS.starttls.id] }],
  nis2: [
    { measure: "h", record: SMTP_TLS_SPECS.starttls.id, weight: 3, rank: 30 },
    { measure: "h", record: SMTP_TLS_SPECS.mxCert.id, weight: 2, rank: 40 }
  ],
  deepScans: ["mail"]
}
