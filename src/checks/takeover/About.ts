/** What the takeover check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { TakeoverResult } from "./TakeoverResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { item } from "../../kernel/Nis2Evidence.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules, TAKEOVER_SPECS } from "./Rules.ts"

export const about = declared({
  id: "takeover",
  title: "Takeover risks",
  category: "security",
  result: TakeoverResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "takeover",
    title: "Takeover risks",
    titleNl: "Overnamerisico's",
    rank: 146,
    sources: ["rfc1034", "rfc9083", "can_i_take_over"],
    facts: ["aliases", "dependencies", "issues"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "d",
      record: TAKEOVER_SPECS.dependencies.id,
      weight: 1,
      rank: 42,
      text: item(
        { en: "Dependencies cannot be taken over", nl: "Afhankelijkheden kunnen niet worden overgenomen" },
        {
          en: "Every domain the records name is registered and answers.",
          nl: "Elk domein dat de records noemen is geregistreerd en antwoordt."
        },
        {
          en: "The records name no other domain, or no registration data (RDAP) was available.",
          nl: "De records noemen geen ander domein, of er waren geen registratiegegevens (RDAP) beschikbaar."
        }
      )
    }
  ],
  deepScans: ["mail", "web"],
  citations: {
    can_i_take_over: {
      title: "can-i-take-over-xyz: which services are vulnerable to subdomain takeover",
      url: "https://github.com/EdOverflow/can-i-take-over-xyz"
    }
  }
})
