/**
 * The example domain's CAA and RPKI results (ExampleZone.ts), from the checks' own `analyse`: the
 * certificates its web site and MX would serve (issued by Let's Encrypt, which its CAA permits),
 * and the routes of its addresses validated against a small set of payloads.
 */
import { analyse as analyseCaa, type Served, toLookup } from "./Caa.ts"
import { analyse as analyseRpki } from "../rpki/Rpki.ts"
import { climb } from "../../records/CaaRecord.ts"
import { parsePrefix } from "../../records/RouteOrigin.ts"
import { once } from "../../kernel/examples/Once.ts"
import { ask, DOMAIN, MX_HOST, MX_V4, MX_V6, NOW } from "../../kernel/examples/ExampleZone.ts"

const LETS_ENCRYPT = "C=US, O=Let's Encrypt, CN=R11"

export const exampleCaa = once(() => {
  const served: ReadonlyArray<Served> = [
    {
      service: "web",
      host: `www.${DOMAIN}`,
      address: "192.0.2.80",
      certificate: { issuer: LETS_ENCRYPT, subjectAltNames: [DOMAIN, `www.${DOMAIN}`], selfIssued: false }
    },
    {
      service: "mx",
      host: MX_HOST,
      address: MX_V4,
      certificate: { issuer: LETS_ENCRYPT, subjectAltNames: [MX_HOST], selfIssued: false }
    }
  ]
  const names = [...new Set(served.flatMap((s) => climb(s.host)))]
  return analyseCaa(
    {
      domain: DOMAIN,
      issuers: [],
      served,
      lookups: Object.fromEntries(names.map((name) => [name, toLookup(name, ask(name, "CAA"))]))
    },
    NOW
  )
})

const vrp = (asn: number, prefix: string, maxLength: number) => ({
  asn,
  prefix: parsePrefix(prefix)!,
  maxLength
})

export const exampleRpki = once(() =>
  analyseRpki(
    {
      domain: DOMAIN,
      source: {
        status: "loaded",
        source: "/var/lib/rpki-client/json",
        vrps: [vrp(64500, "192.0.2.0/24", 24), vrp(64500, "2001:db8::/32", 48)],
        skipped: 0,
        loadedAt: "2026-12-01T08:30:00.000Z"
      },
      targets: [
        {
          service: "web",
          host: DOMAIN,
          ip: "192.0.2.80",
          texts: ["64500 | 192.0.2.0/24 | NL | ripencc | 2001-01-01"]
        },
        {
          service: "web",
          host: DOMAIN,
          ip: "2001:db8::80",
          texts: ["64500 | 2001:db8::/32 | NL | ripencc | 2001-01-01"]
        },
        {
          service: "ns",
          host: `ns1.${DOMAIN}`,
          ip: "192.0.2.53",
          texts: ["64500 | 192.0.2.0/24 | NL | ripencc | 2001-01-01"]
        },
        {
          service: "mx",
          host: MX_HOST,
          ip: MX_V4,
          texts: ["64500 | 192.0.2.0/24 | NL | ripencc | 2001-01-01"]
        },
        {
          service: "mx",
          host: MX_HOST,
          ip: MX_V6,
          texts: ["64500 | 2001:db8::/32 | NL | ripencc | 2001-01-01"]
        }
      ].map(({ texts, ...t }) => ({
        ...t,
        service: t.service as "web" | "mx" | "ns",
        origin: { outcome: "answer" as const, texts }
      })),
      unresolved: []
    },
    NOW
  )
)
