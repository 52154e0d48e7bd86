/**
 * The memo keys of the network questions (net/questions/): equal for what asks the same (a host
 * name in any case, with or without its final dot; the default port named or not), apart for
 * anything that changes the answer.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { Alpn } from "../../../src/net/questions/Alpn.ts"
import { DirectDns } from "../../../src/net/questions/DirectDns.ts"
import { KeyExchange } from "../../../src/net/questions/KeyExchange.ts"
import { runs } from "../../support/runs.ts"

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/)
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((ls) => ls.join("."))
/** The same name as a resolver may be handed it: any case, perhaps a final dot. */
const spelled = (name: string) =>
  fc
    .tuple(fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }), fc.boolean())
    .map(
      ([upper, dot]) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("") + (dot ? "." : "")
    )
const address = fc.ipV4()

describe("question keys", () => {
  it("the key exchange: one key per (servers, name, address), however the name is spelled", () =>
    fc.assert(
      fc.property(
        host.chain((h) => fc.tuple(fc.constant(h), spelled(h))),
        address,
        fc.constantFrom("web" as const, "mail" as const),
        ([name, other], ip, servers) => {
          const key = KeyExchange.key({ servers, host: name, address: ip })
          expect(KeyExchange.key({ servers, host: other, address: ip })).toBe(key)
          const elsewhere = servers === "web" ? ("mail" as const) : ("web" as const)
          expect(KeyExchange.key({ servers: elsewhere, host: name, address: ip })).not.toBe(key)
        }
      ),
      { numRuns: runs(100) }
    ))

  it("ALPN: port 443 named or not is one question; the protocols and another port are not", () =>
    fc.assert(
      fc.property(
        host,
        fc.array(fc.constantFrom("h2", "http/1.1", "h3"), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 65535 }).filter((p) => p !== 443),
        (name, protocols, port) => {
          const key = Alpn.key({ host: name, protocols })
          expect(Alpn.key({ host: name.toUpperCase(), protocols, port: 443 })).toBe(key)
          expect(Alpn.key({ host: name, protocols, port })).not.toBe(key)
          expect(Alpn.key({ host: name, protocols: [...protocols, "spdy/3"] })).not.toBe(key)
        }
      ),
      { numRuns: runs(100) }
    ))

  it("direct DNS: the server, the name, the type, RD and the transport each tell questions apart", () => {
    const q = {
      name: "example.com",
      type: "SOA" as const,
      recursionDesired: false,
      transport: "udp" as const
    }
    const key = DirectDns.key({ address: "192.0.2.53", question: q })
    expect(DirectDns.key({ address: "192.0.2.53", question: { ...q, name: "Example.COM." } })).toBe(key)
    for (const other of [
      { address: "192.0.2.54", question: q },
      { address: "192.0.2.53", question: { ...q, name: "example.net" } },
      { address: "192.0.2.53", question: { ...q, type: "NS" as const } },
      { address: "192.0.2.53", question: { ...q, recursionDesired: true } },
      { address: "192.0.2.53", question: { ...q, transport: "tcp" as const } }
    ])
      expect(DirectDns.key(other)).not.toBe(key)
  })
})
