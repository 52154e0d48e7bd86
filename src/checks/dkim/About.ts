/** What the DKIM check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { DkimResult } from "./DkimResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { DKIM_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "dkim",
  title: "DKIM",
  category: "email",
  result: DkimResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "dkim",
    title: "DKIM",
    titleNl: "DKIM",
    rank: 60,
    sources: ["rfc6376", "rfc8301"],
    facts: ["status", "hasDkim", "selectors_found", "valid_keys", "warnings", "issues", "note"],
    generator: null
  },
  columns: [{ name: "dkim", rank: 30, records: [DKIM_SPECS.dkim.id] }],
  nis2: [
    {
      measure: "g",
      record: DKIM_SPECS.dkim.id,
      weight: 2,
      rank: 50,
      text: item(
        { en: "DKIM signing key", nl: "DKIM-ondertekeningssleutel" },
        {
          en: "A valid DKIM key of 2048 bits or Ed25519 was found.",
          nl: "Er is een geldige DKIM-sleutel van 2048 bits of Ed25519 gevonden."
        },
        NO_MAIL
      )
    }
  ],
  deepScans: ["mail"],
  // Every selector question was answered; DKIM selectors cannot be listed (RFC 6376 3.6.2.1).
  settledUnknowns: (result: DkimResult) => (result.discovery === "not-found" ? [DKIM_SPECS.dkim.id] : [])
})
