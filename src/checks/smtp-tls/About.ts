/** What the SMTP TLS check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { SmtpTlsResult } from "./SmtpTlsResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { SMTP_TLS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "smtp-tls",
  title: "SMTP TLS",
  category: "security",
  result: SmtpTlsResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "smtpStarttls",
    title: "SMTP STARTTLS",
    titleNl: "SMTP STARTTLS",
    rank: 100,
    sources: ["rfc3207", "rfc5321", "rfc9525", "ncsc_tls", "rfc8996"],
    facts: ["summary", "issues"],
    generator: null
  },
  columns: [{ name: "starttls", rank: 60, records: [SMTP_TLS_SPECS.starttls.id] }],
  nis2: [
    {
      measure: "h",
      record: SMTP_TLS_SPECS.starttls.id,
      weight: 3,
      rank: 30,
      text: item(
        { en: "STARTTLS on every mail server", nl: "STARTTLS op elke mailserver" },
        {
          en: "Every mail server offers STARTTLS with TLS 1.2 or later.",
          nl: "Elke mailserver biedt STARTTLS met TLS 1.2 of hoger."
        },
        NO_MAIL
      )
    },
    {
      measure: "h",
      record: SMTP_TLS_SPECS.mxCert.id,
      weight: 2,
      rank: 40,
      text: item(
        { en: "Valid mail server certificates", nl: "Geldige certificaten van de mailservers" },
        {
          en: "Every mail server certificate is trusted, names the host and is not expired.",
          nl: "Elk certificaat van een mailserver is vertrouwd, noemt de host en is niet verlopen."
        },
        {
          en: "No mail server offered TLS, or the domain receives no mail, so there is no certificate to judge.",
          nl: "Geen mailserver bood TLS aan, of het domein ontvangt geen mail, dus er is geen certificaat te beoordelen."
        }
      )
    },
    {
      measure: "h",
      record: SMTP_TLS_SPECS.mxTls.id,
      weight: 2,
      rank: 45,
      text: item(
        { en: "TLS configuration of the mail servers", nl: "TLS-configuratie van de mailservers" },
        {
          en: "Every mail server accepts only TLS versions, cipher suites and key exchanges the NCSC-NL TLS guidelines rate good or sufficient.",
          nl: "Elke mailserver accepteert alleen TLS-versies, cipher suites en sleuteluitwisselingen die de NCSC-TLS-richtlijnen goed of voldoende noemen."
        },
        {
          en: "No mail server offered TLS, or the domain receives no mail, so there is no TLS configuration to judge.",
          nl: "Geen mailserver bood TLS aan, of het domein ontvangt geen mail, dus er is geen TLS-configuratie te beoordelen."
        }
      )
    }
  ],
  deepScans: ["mail"]
})
