/**
 * What the CAA check gathers for the example domain: the certificates its web site and MX would
 * serve (issued by Let's Encrypt, which its CAA permits), and the CAA records of each name climbed
 * from their hosts, read from the zone by the check's own `toLookup` (Caa.ts, which imports this
 * module, hands it in).
 */
import type { Either } from "effect"
import type { DnsAnswer, DnsError } from "../../net/DnsTypes.ts"
import { climb } from "../../records/CaaRecord.ts"
import { ask, DOMAIN, MX_HOST, MX_V4 } from "../../kernel/examples/ExampleZone.ts"

const LETS_ENCRYPT = "C=US, O=Let's Encrypt, CN=R11"

export const exampleGathered = <L>(
  toLookup: (name: string, answer: Either.Either<DnsAnswer, DnsError>) => L
) => {
  const served = [
    {
      service: "web" as const,
      host: `www.${DOMAIN}`,
      address: "192.0.2.80",
      certificate: { issuer: LETS_ENCRYPT, subjectAltNames: [DOMAIN, `www.${DOMAIN}`], selfIssued: false }
    },
    {
      service: "mx" as const,
      host: MX_HOST,
      address: MX_V4,
      certificate: { issuer: LETS_ENCRYPT, subjectAltNames: [MX_HOST], selfIssued: false }
    }
  ]
  const names = [...new Set(served.flatMap((s) => climb(s.host)))]
  return {
    domain: DOMAIN,
    issuers: [],
    served,
    lookups: Object.fromEntries(names.map((name) => [name, toLookup(name, ask(name, "CAA"))]))
  }
}
