/** What the DANE check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { item } from "../../kernel/Nis2Evidence.ts"
import { TlsaResult } from "./TlsaResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { DANE_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "dane",
  title: "DANE (TLSA for SMTP)",
  category: "security",
  result: TlsaResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "daneTlsa",
    title: "DANE / TLSA",
    titleNl: "DANE / TLSA",
    rank: 40,
    sources: ["rfc6698", "rfc7672"],
    facts: ["status", "exists", "dnssecValidated", "tlsaDomain", "port", "protocol", "issues"],
    generator: "POST /dns/tlsa/generate"
  },
  columns: [],
  nis2: [
    {
      measure: "j",
      record: DANE_SPECS.dane.id,
      weight: 1,
      rank: 20,
      text: item(
        { en: "DANE for the mail servers", nl: "DANE voor de mailservers" },
        {
          en: "DNSSEC-signed TLSA records match every mail server (RFC 7672).",
          nl: "Met DNSSEC ondertekende TLSA-records passen bij elke mailserver (RFC 7672)."
        },
        {
          en: "The zone is not DNSSEC-signed or receives no mail, so DANE cannot apply.",
          nl: "De zone is niet met DNSSEC ondertekend of ontvangt geen mail, dus DANE kan niet van toepassing zijn."
        }
      )
    }
  ],
  deepScans: ["mail"]
})
