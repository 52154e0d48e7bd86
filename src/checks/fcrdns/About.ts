/** What the FCrDNS check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { FcrdnsReport } from "./FcrdnsResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { FCRDNS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "fcrdns",
  title: "Forward-confirmed reverse DNS of the mail servers",
  category: "dns",
  result: FcrdnsReport,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "fcrdns",
    title: "Forward-confirmed reverse DNS",
    titleNl: "Voorwaarts bevestigde reverse DNS",
    rank: 110,
    sources: ["rfc1912", "m3aawg"],
    facts: ["description", "result"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "g",
      record: FCRDNS_SPECS.ptr.id,
      weight: 1,
      rank: 70,
      text: item(
        { en: "Reverse DNS of the mail servers", nl: "Reverse DNS van de mailservers" },
        {
          en: "Every mail server address has a PTR record.",
          nl: "Elk adres van een mailserver heeft een PTR-record."
        },
        NO_MAIL
      )
    },
    {
      measure: "g",
      record: FCRDNS_SPECS.fcrdns.id,
      weight: 1,
      rank: 80,
      text: item(
        { en: "Forward-confirmed reverse DNS", nl: "Voorwaarts bevestigde reverse DNS" },
        {
          en: "The PTR name of every mail server address resolves back to it.",
          nl: "De PTR-naam van elk adres van een mailserver verwijst terug naar dat adres."
        },
        NO_MAIL
      )
    }
  ],
  deepScans: ["mail"]
})
