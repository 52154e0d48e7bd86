/** What the FCrDNS check gathers for the example domain: its MX's two addresses, both confirmed. */
import { DOMAIN, MX_HOST, MX_V4, MX_V6 } from "../../kernel/examples/ExampleZone.ts"

const addressInput = (ip: string) => ({
  hostname: MX_HOST,
  ip,
  ptr: { outcome: "answer" as const, value: [MX_HOST] },
  forward: { [MX_HOST]: { outcome: "answer" as const, value: [ip] } }
})

export const exampleGathered = () => ({
  domain: DOMAIN,
  mxStatus: "answer" as const,
  addresses: [addressInput(MX_V4), addressInput(MX_V6)]
})
