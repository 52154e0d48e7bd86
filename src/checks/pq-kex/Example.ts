/**
 * What the post-quantum key-exchange check gathers for the example domain: its web server (an
 * OpenSSL 3.5 stack) takes X25519MLKEM768; its MX (a Postfix on OpenSSL 3.0) asks for X25519 with
 * a HelloRetryRequest.
 */
import { DOMAIN, MX_HOST, MX_V4 } from "../../kernel/examples/ExampleZone.ts"
import type { PqKexGathered } from "./PqKexGathered.ts"

export const exampleGathered = (): PqKexGathered => ({
  domain: DOMAIN,
  webLookup: "answer",
  mxStatus: "answer",
  mxError: null,
  asked: [
    {
      service: "web",
      host: DOMAIN,
      address: "192.0.2.80",
      answer: {
        kind: "selected",
        group: 0x11ec,
        groupName: "X25519MLKEM768",
        hybrid: true,
        helloRetry: false
      }
    },
    {
      service: "mail",
      host: MX_HOST,
      address: MX_V4,
      answer: { kind: "selected", group: 0x001d, groupName: "x25519", hybrid: false, helloRetry: true }
    }
  ]
})
