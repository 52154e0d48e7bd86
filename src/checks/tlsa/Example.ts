/**
 * What the DANE check gathers for the example domain: its MX's TLSA record (3 1 1 for the
 * server's key, signed), and the SMTP sessions that present the key (smtp-tls's example).
 */
import { answered } from "../dnssec/Example.ts"
import { exampleProbes } from "../smtp-tls/Example.ts"
import { DOMAIN, MX_HOST } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = () => ({
  domain: DOMAIN,
  mxError: null,
  hosts: [
    { host: MX_HOST, priority: 10, lookup: answered(`_25._tcp.${MX_HOST}`, "TLSA"), probes: exampleProbes() }
  ]
})
