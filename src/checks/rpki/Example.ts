/**
 * What the RPKI check gathers for the example domain: the routes of its web, name-server and MX
 * addresses, and a small set of validated payloads that covers them.
 */
import { parsePrefix } from "../../records/RouteOrigin.ts"
import { DOMAIN, MX_HOST, MX_V4, MX_V6 } from "../../kernel/examples/ExampleZone.ts"

const vrp = (asn: number, prefix: string, maxLength: number) => ({
  asn,
  prefix: parsePrefix(prefix)!,
  maxLength
})

export const exampleGathered = () => ({
  domain: DOMAIN,
  source: {
    status: "loaded" as const,
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
})
