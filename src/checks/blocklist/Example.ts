/** What the blocklist check gathers for the example domain: its MX's addresses, on neither of two lists. */
import { DOMAIN, MX_HOST, MX_V4, MX_V6 } from "../../kernel/examples/ExampleZone.ts"

const BLOCKLISTS = [
  { zone: "zen.spamhaus.org", name: "Spamhaus ZEN", severity: "high" },
  { zone: "bl.spamcop.net", name: "SpamCop", severity: "medium" }
] as const

export const exampleGathered = () => ({
  domain: DOMAIN,
  zones: BLOCKLISTS,
  mxStatus: "answer" as const,
  servers: [MX_V4, MX_V6].map((ip) => ({
    hostname: MX_HOST,
    ip,
    answers: BLOCKLISTS.map((zone) => ({ zone, answer: { outcome: "none" as const } }))
  }))
})
