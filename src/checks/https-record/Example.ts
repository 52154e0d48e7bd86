/**
 * What the HTTPS-record check gathers for the example domain: an HTTPS record (RFC 9460) that
 * matches the server, h2 and http/1.1 negotiated, its address hint the A record's.
 */
import { encodeSvcb } from "../../records/SvcbRecord.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = () => ({
  domain: DOMAIN,
  chain: [DOMAIN],
  records: {
    outcome: "answer" as const,
    value: [
      {
        owner: DOMAIN,
        rdata: encodeSvcb({
          priority: 1,
          target: ".",
          mandatory: [],
          alpn: ["h2", "http/1.1"],
          noDefaultAlpn: false,
          port: null,
          ipv4hint: ["93.184.215.14"],
          ipv6hint: [],
          ech: null,
          other: []
        }),
        addresses: { outcome: "answer" as const, value: { v4: ["93.184.215.14"], v6: [] } },
        alpn: {
          outcome: "answer" as const,
          value: ["h2", "http/1.1"].map((p) => ({
            address: "93.184.215.14",
            offered: p,
            selected: true,
            refusal: null
          }))
        }
      }
    ]
  }
})
