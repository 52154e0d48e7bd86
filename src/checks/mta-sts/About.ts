/** What the MTA-STS check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_MAIL, item } from "../../kernel/Nis2Evidence.ts"
import { MtaStsResult } from "./MtaStsResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { MTA_STS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "mta-sts",
  title: "MTA-STS",
  category: "email",
  result: MtaStsResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "mtaSts",
    title: "MTA-STS and TLS reporting",
    titleNl: "MTA-STS en TLS-rapportage",
    rank: 90,
    sources: ["rfc8461", "rfc8460"],
    facts: ["status", "exists", "valid", "record", "policyId", "policyUrl", "warnings", "issues"],
    generator: null
  },
  columns: [{ name: "mta_sts", rank: 40, records: [MTA_STS_SPECS.mtaSts.id] }],
  nis2: [
    {
      measure: "b",
      record: MTA_STS_SPECS.tlsRpt.id,
      weight: 1,
      rank: 20,
      text: item(
        {
          en: "TLS-RPT reports of failed encrypted deliveries",
          nl: "TLS-RPT-rapporten over mislukte versleutelde afleveringen"
        },
        {
          en: "A valid _smtp._tls record asks for reports (RFC 8460).",
          nl: "Een geldig _smtp._tls-record vraagt om rapporten (RFC 8460)."
        },
        NO_MAIL
      )
    },
    {
      measure: "j",
      record: MTA_STS_SPECS.mtaSts.id,
      weight: 1,
      rank: 10,
      text: item(
        { en: "MTA-STS in enforce mode", nl: "MTA-STS in enforce-modus" },
        {
          en: "An MTA-STS policy in enforce mode covers every mail server (RFC 8461).",
          nl: "Een MTA-STS-beleid in enforce-modus dekt elke mailserver (RFC 8461)."
        },
        NO_MAIL
      )
    }
  ],
  deepScans: ["mail"]
})

/** Served alone: `GET /api/email/mta-sts?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "email",
  name: "mtaSts",
  path: "/email/mta-sts",
  summary: "Check MTA-STS and TLS reporting",
  description:
    "Reads the _mta-sts record, fetches the policy from https://mta-sts.<domain>/.well-known/mta-sts.txt, checks that it covers every MX host, and reads the TLS-RPT record (RFC 8461, RFC 8460).",
  cost: "costly",
  example: "a policy in testing mode, with TLS reporting",
  rank: 60
}
