/** What the HTTPS transport check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_WEB, item } from "../../kernel/Nis2Evidence.ts"
import { WebTlsResult } from "./WebTlsResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules, WEB_TLS_SPECS } from "./Rules.ts"

export const about = declared({
  id: "web-tls",
  title: "HTTPS transport (TLS)",
  category: "security",
  result: WebTlsResult,
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
})

/** Served alone: `GET /api/web/tls?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "web",
  name: "webTls",
  path: "/web/tls",
  summary: "Probe the web site's TLS configuration",
  description:
    "For every address (IPv4 and IPv6) of the domain and its www. host: which TLS versions are accepted (1.0 to 1.3, each probed on its own), which cipher suites and in what order, the key exchange, the certificate chain (trust, names, expiry, key, signature) and OCSP stapling, each rated good / sufficient / phase-out / insufficient by the NCSC-NL TLS guidelines. An address that does not answer is unknown, never rated; SSL 3 is untested (this client cannot speak it).",
  cost: "costly",
  example: "example.com: TLS 1.2 and 1.3, ECDHE suites in the server's order",
  rank: 40
}
