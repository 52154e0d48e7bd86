/** What the HTTPS transport check declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_WEB, item } from "../../kernel/Nis2Evidence.ts"
import type { About } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules, WEB_TLS_SPECS } from "./Rules.ts"

export const about: About = {
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "webTls",
    title: "HTTPS transport (TLS)",
    titleNl: "HTTPS-transport (TLS)",
    rank: 141,
    sources: ["ncsc_tls", "rfc8446", "rfc8996", "rfc6066"],
    facts: ["summary", "hosts", "issues"],
    generator: null
  },
  columns: [{ name: "web_tls", rank: 73, records: [WEB_TLS_SPECS.tls.id] }],
  nis2: [
    {
      measure: "h",
      record: WEB_TLS_SPECS.tls.id,
      weight: 2,
      rank: 25,
      text: item(
        { en: "TLS configuration of the web site", nl: "TLS-configuratie van de website" },
        {
          en: "Every web address accepts only TLS versions, cipher suites and key exchanges the NCSC-NL TLS guidelines rate good or sufficient.",
          nl: "Elk webadres accepteert alleen TLS-versies, cipher suites en sleuteluitwisselingen die de NCSC-TLS-richtlijnen goed of voldoende noemen."
        },
        NO_WEB
      )
    }
  ],
  deepScans: ["web"]
}
