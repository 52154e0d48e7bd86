/** What the blocklist check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { BlocklistResult } from "./BlocklistResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { BLOCKLIST_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "blocklist",
  title: "DNS blocklists",
  category: "security",
  result: BlocklistResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "blocklists",
    title: "DNS blocklists",
    titleNl: "DNS-blokkeerlijsten",
    rank: 120,
    sources: ["rfc5782"],
    facts: ["status", "summary", "issues"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "g",
      record: BLOCKLIST_SPECS.blocklist.id,
      weight: 2,
      rank: 60,
      text: item(
        { en: "Mail servers not blocklisted", nl: "Mailservers niet op blokkadelijsten" },
        {
          en: "No mail server address is on a DNS blocklist.",
          nl: "Geen adres van een mailserver staat op een DNS-blokkadelijst."
        },
        NO_MAIL
      )
    }
  ],
  deepScans: ["mail"]
})
