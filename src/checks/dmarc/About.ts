/** What the DMARC check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { findingIssues, findings } from "./Findings.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { DmarcResult } from "./DmarcResult.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { DMARC_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "dmarc",
  title: "DMARC",
  category: "email",
  result: DmarcResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "dmarc",
    title: "DMARC",
    titleNl: "DMARC",
    rank: 70,
    sources: ["rfc7489"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "policy",
      "subdomainPolicy",
      "pct",
      "rua",
      "ruf",
      "adkim",
      "aspf",
      "warnings",
      "issues"
    ],
    generator: "POST /email/dmarc/generate"
  },
  columns: [{ name: "dmarc", rank: 20, records: [DMARC_SPECS.dmarcValid.id, DMARC_SPECS.dmarcPolicy.id] }],
  nis2: [
    {
      measure: "b",
      record: DMARC_SPECS.dmarcRua.id,
      weight: 1,
      rank: 10,
      text: item(
        { en: "DMARC aggregate reports (rua)", nl: "DMARC-verzamelrapporten (rua)" },
        {
          en: "The DMARC record asks for aggregate reports.",
          nl: "Het DMARC-record vraagt om verzamelrapporten."
        },
        NO_MAIL
      )
    },
    {
      measure: "g",
      record: DMARC_SPECS.dmarcValid.id,
      weight: 1,
      rank: 30,
      text: item(
        { en: "Valid DMARC record", nl: "Geldig DMARC-record" },
        { en: "The DMARC record parses (RFC 7489).", nl: "Het DMARC-record is correct (RFC 7489)." }
      )
    },
    {
      measure: "g",
      record: DMARC_SPECS.dmarcPolicy.id,
      weight: 3,
      passAt: 0.75,
      rank: 40,
      text: item(
        { en: "DMARC enforces (quarantine or reject)", nl: "DMARC dwingt af (quarantine of reject)" },
        {
          en: "The DMARC policy quarantines or rejects spoofed mail.",
          nl: "Het DMARC-beleid zet vervalste mail in quarantaine of weigert die."
        }
      )
    }
  ],
  deepScans: ["mail"],
  findings,
  findingIds: findingIssues
})

/** Served alone: `GET /api/email/dmarc?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "email",
  name: "dmarc",
  path: "/email/dmarc",
  summary: "Check the DMARC record",
  description:
    "Reads the DMARC record at _dmarc (or the organisational domain's, RFC 7489 6.6.3) and reports its policy, subdomain policy, alignment, report addresses and whether they can receive mail and are authorised, with findings.",
  cost: "costly",
  example: "p=reject with aggregate reports and strict DKIM alignment",
  rank: 40
}
