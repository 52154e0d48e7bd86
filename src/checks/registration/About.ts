/** What the registration check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { RegistrationResult } from "./RegistrationResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { item } from "../../kernel/Nis2Evidence.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { REGISTRATION_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "registration",
  title: "Registration expiry of the domain and its dependencies",
  category: "dns",
  result: RegistrationResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "registration",
    title: "Registration and dependencies",
    titleNl: "Registratie en afhankelijkheden",
    rank: 116,
    sources: ["rfc9082", "rfc9083", "rfc9224"],
    facts: ["rdapConfigured", "registration", "dependencies", "issues"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "d",
      record: REGISTRATION_SPECS.dependencies.id,
      weight: 1,
      rank: 41,
      text: item(
        { en: "Registration of dependencies", nl: "Registratie van afhankelijkheden" },
        {
          en: "Every domain the records depend on stays registered for more than 30 days.",
          nl: "Elk domein waarvan de records afhangen blijft nog meer dan 30 dagen geregistreerd."
        },
        {
          en: "No registration data (RDAP) was available for the domains it depends on.",
          nl: "Er waren geen registratiegegevens (RDAP) beschikbaar voor de domeinen waarvan het afhangt."
        }
      )
    }
  ],
  deepScans: ["mail", "web"]
})
