/**
 * What the web TLS check gathers for the example domain: the TLS scans of example.com (IPv4 and
 * IPv6) and www.example.com (kernel/examples/ExampleTlsScans.ts).
 */
import { exampleTlsScan, WEB_V4, WEB_V6 } from "../../kernel/examples/ExampleTlsScans.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"
import type { WebTlsInput } from "./WebTlsAnalyse.ts"

export const exampleGathered = (): WebTlsInput => ({
  domain: DOMAIN,
  hosts: [
    { host: DOMAIN, lookup: "answer" as const, addresses: [WEB_V4, WEB_V6] },
    { host: `www.${DOMAIN}`, lookup: "answer" as const, addresses: [WEB_V4] }
  ],
  scans: [
    exampleTlsScan(DOMAIN, WEB_V4),
    exampleTlsScan(DOMAIN, WEB_V6),
    exampleTlsScan(`www.${DOMAIN}`, WEB_V4)
  ]
})
