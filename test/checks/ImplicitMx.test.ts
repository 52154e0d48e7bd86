/**
 * Every user of the mail-servers fact works for the implicit MX (RFC 5321 5.1): with no MX RRset the
 * domain's own address is probed, FCrDNS- and blocklist-checked, and its TLSA read at
 * _25._tcp.<domain> (RFC 7672 2.2.3), each entry marked `implicit`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Blocklist } from "../../src/checks/blocklist/Blocklist.ts"
import { Fcrdns } from "../../src/checks/fcrdns/Fcrdns.ts"
import { Tlsa } from "../../src/checks/tlsa/Tlsa.ts"
import { runFake } from "./facts.ts"

const zone = {
  "implicit.test A": ["192.0.2.80"],
  "implicit.test TXT": ["v=spf1 a -all"],
  "80.2.0.192.in-addr.arpa PTR": ["implicit.test."],
  "80.2.0.192.zen.spamhaus.org A": ["127.0.0.2"],
  "2.0.0.127.zen.spamhaus.org A": ["127.0.0.2"],
  "_25._tcp.implicit.test TLSA": ["3 1 1 " + "ab".repeat(32)]
} as const

describe("implicit MX through every mail check", () => {
  it.effect("FCrDNS checks the domain's own address", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Fcrdns, "implicit.test", { zone })
      expect(r.result.results.map((a) => [a.hostname, a.ip, a.implicit, a.forwardConfirmed])).toEqual([
        ["implicit.test", "192.0.2.80", true, true]
      ])
      expect(r.result.status).toBe("pass")
      expect(r.result.issues.join("\n")).toMatch(/implicit MX/)
    })
  )
  it.effect("blocklists look the domain's own address up", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Blocklist, "implicit.test", { zone, env: { DNSBL_ZONES: "zen.spamhaus.org" } })
      expect(r.mailServers.map((s) => [s.hostname, s.ip, s.implicit, s.blacklistResult.listed])).toEqual([
        ["implicit.test", "192.0.2.80", true, true]
      ])
      expect(r.status).toBe("fail")
    })
  )
  it.effect("DANE reads TLSA at _25._tcp.<domain> and compares the implicit MX's chain", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Tlsa, "implicit.test", { zone })
      expect(r.tlsaDomain).toBe("_25._tcp.implicit.test")
      expect(r.hosts.map((h) => [h.host, h.priority, h.implicit, h.exists])).toEqual([
        ["implicit.test", 0, true, true]
      ])
      // the fake SMTP refuses every connection: the records cannot be compared, never "broken"
      expect(r.hosts[0]!.dane).not.toBeNull()
    })
  )
})
