import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import * as net from "node:net"
import {
  analyse,
  Blocklist,
  BlocklistResult,
  type BlocklistInput,
  expandIPv6,
  interpret,
  queryName,
  type ZoneAnswer,
  zoneProblem
} from "../../../src/checks/blocklist/Blocklist.ts"
import type { DnsblZone } from "../../../src/Config.ts"
import { runFake } from "../facts.ts"

const now = new Date("2026-11-22T00:00:00Z")

const zen: DnsblZone = { zone: "zen.spamhaus.org", name: "Spamhaus ZEN", severity: "high" }
const psbl: DnsblZone = { zone: "psbl.surriel.com", name: "PSBL", severity: "low" }

describe("query names (RFC 5782 2.1, 2.4)", () => {
  it("reverses IPv4 octets and IPv6 nibbles", () => {
    expect(queryName("192.0.2.99", "zen.spamhaus.org")).toBe("99.2.0.192.zen.spamhaus.org")
    expect(queryName("2001:db8:1:2::3:4", "x.test")).toBe(
      "4.0.0.0.3.0.0.0.0.0.0.0.0.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.x.test"
    )
    expect(queryName("::ffff:192.0.2.1", "x.test")).toMatch(/^1\.0\.2\.0\.0\.0\.0\.c\.f\.f\.f\.f\.0/)
    expect(queryName("not-an-ip", "x.test")).toBeNull()
    expect(queryName("256.1.1.1", "x.test")).toBeNull()
  })

  it("IPv4 reversal round-trips (property)", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const name = queryName(ip, "z.test")!
        expect(
          name
            .replace(/\.z\.test$/, "")
            .split(".")
            .reverse()
            .join(".")
        ).toBe(ip.split(".").map(Number).join("."))
      })
    )
  })

  it("IPv6 expansion agrees with node's parser (property)", () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const expanded = expandIPv6(ip)
        expect(expanded).not.toBeNull()
        expect(expanded!).toMatch(/^([0-9a-f]{4}:){7}[0-9a-f]{4}$/)
        // the expanded form denotes the same address
        const sock = new net.SocketAddress({ address: ip, family: "ipv6" })
        const again = new net.SocketAddress({ address: expanded!, family: "ipv6" })
        expect(again.address).toBe(sock.address)
        expect(queryName(ip, "z")!.split(".")).toHaveLength(33)
      })
    )
  })

  it("never throws on arbitrary strings (property)", () => {
    fc.assert(fc.property(fc.string(), (s) => void queryName(s, "z.test")))
  })
})

describe("return codes", () => {
  const q = "2.0.0.127.zen.spamhaus.org"
  const cases: Array<[ZoneAnswer, string, boolean, RegExp | null]> = [
    [{ outcome: "none" }, "clean", false, null],
    [{ outcome: "answer", addresses: ["127.0.0.2"] }, "listed", true, /SBL/],
    [{ outcome: "answer", addresses: ["127.0.0.4", "127.0.0.10"] }, "listed", true, /XBL.*PBL/],
    [{ outcome: "answer", addresses: ["127.255.255.254"] }, "unknown", false, /public or open resolver/],
    [{ outcome: "answer", addresses: ["127.255.255.255"] }, "unknown", false, /excessive/],
    [{ outcome: "answer", addresses: ["127.0.0.2", "127.255.255.252"] }, "unknown", false, /typing error/],
    [{ outcome: "answer", addresses: ["127.0.0.1"] }, "unknown", false, /unexpected/],
    [{ outcome: "answer", addresses: ["203.0.113.7"] }, "unknown", false, /unexpected/],
    [{ outcome: "unknown", reason: "timeout" }, "unknown", false, /timeout/]
  ]
  it.each(cases)("%j -> %s", (answer, status, listed, meaning) => {
    const verdict = interpret(zen, q, answer)
    expect(verdict.status).toBe(status)
    expect(verdict.listed).toBe(listed)
    if (meaning) expect(verdict.meaning).toMatch(meaning)
  })

  it("a refused or failed query is never listed nor clean (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.ipV4(), { maxLength: 4 }), (addresses) => {
        const v = interpret(zen, q, { outcome: "answer", addresses })
        if (addresses.some((a) => a.startsWith("127.255.255.")) || addresses.length === 0)
          expect(v.status).toBe("unknown")
        expect(v.status === "listed").toBe(v.listed)
        expect(v.status).not.toBe("clean")
      })
    )
  })

  it("summarises per server and overall", () => {
    const result = analyse(
      {
        domain: "example.com",
        zones: [zen, psbl],
        mxStatus: "answer",
        servers: [
          {
            hostname: "mx1.example.com",
            ip: "192.0.2.1",
            answers: [
              { zone: zen, answer: { outcome: "none" } },
              { zone: psbl, answer: { outcome: "answer", addresses: ["127.0.0.2"] } }
            ]
          },
          {
            hostname: "mx2.example.com",
            ip: "192.0.2.2",
            answers: [
              { zone: zen, answer: { outcome: "answer", addresses: ["127.255.255.254"] } },
              { zone: psbl, answer: { outcome: "none" } }
            ]
          }
        ]
      },
      now
    )
    expect(result.mailServers[0]!.blacklistResult.listed).toBe(true)
    expect(result.mailServers[0]!.status).toBe("warning")
    expect(result.mailServers[1]!.blacklistResult.listed).toBe(false)
    expect(result.mailServers[1]!.blacklistResult.status).toBe("unknown")
    expect(result.status).toBe("warning")
    expect(result.summary).toMatchObject({ serversChecked: 2, listedServers: 1, unknownLookups: 1 })
  })
})

describe("zoneProblem (RFC 5782 5 test entries)", () => {
  it("tells working, dead, refusing and wildcard lists apart", () => {
    const listed: ZoneAnswer = { outcome: "answer", addresses: ["127.0.0.2"] }
    expect(zoneProblem(listed, { outcome: "none" })).toBeNull()
    expect(zoneProblem({ outcome: "none" }, { outcome: "none" })).toMatch(/not operating/)
    expect(zoneProblem({ outcome: "answer", addresses: ["127.255.255.254"] }, { outcome: "none" })).toMatch(
      /refuses/
    )
    expect(zoneProblem(listed, listed)).toMatch(/wildcard/)
    // a failed health query says nothing: the per-address answers decide
    expect(zoneProblem({ outcome: "unknown", reason: "timeout" }, { outcome: "none" })).toBeNull()
  })
})

describe("check", () => {
  it.effect("queries every zone for every MX address", () =>
    Effect.gen(function* () {
      const result = yield* runFake(Blocklist, "listed.test", {
        env: { DNSBL_ZONES: "zen.spamhaus.org,bl.spamcop.net|SpamCop|medium,dead.test|Dead list|low" },
        zone: {
          "listed.test MX": ["10 mx.listed.test."],
          "mx.listed.test A": ["192.0.2.66"],
          "66.2.0.192.zen.spamhaus.org A": ["127.0.0.2"],
          "2.0.0.127.zen.spamhaus.org A": ["127.0.0.2"],
          "dead.test SOA": ["ns.dead.test. h.dead.test. 1 2 3 4 5"],
          "66.2.0.192.bl.spamcop.net A": "TIMEOUT"
        }
      })
      const server = result.mailServers.find((s) => s.ip === "192.0.2.66")!
      expect(server.blacklistResult.listed).toBe(true)
      expect(server.blacklistResult.blacklists.map((b) => [b.name, b.status])).toEqual([
        ["Spamhaus ZEN", "listed"],
        ["SpamCop", "unknown"],
        ["Dead list", "unknown"]
      ])
      expect(server.blacklistResult.blacklists[2]!.meaning).toMatch(/test entry 127\.0\.0\.2/)
      expect(result.status).toBe("fail")
    })
  )
})

describe("analyse (property)", () => {
  const zoneArb = fc.record({
    zone: fc.constantFrom("zen.spamhaus.org", "bl.spamcop.net", "x.test"),
    name: fc.string({ maxLength: 8 }),
    severity: fc.constantFrom("high" as const, "medium" as const, "low" as const)
  })
  const answerArb: fc.Arbitrary<ZoneAnswer> = fc.oneof(
    fc.record({ outcome: fc.constant("answer" as const), addresses: fc.array(fc.ipV4(), { maxLength: 3 }) }),
    fc.constant({ outcome: "none" as const }),
    fc.record({ outcome: fc.constant("unknown" as const), reason: fc.string({ maxLength: 10 }) })
  )
  const inputArb: fc.Arbitrary<BlocklistInput> = fc.record({
    domain: fc.domain(),
    zones: fc.array(zoneArb, { maxLength: 3 }),
    mxStatus: fc.constantFrom("answer" as const, "none" as const, "unknown" as const),
    servers: fc.array(
      fc.record({
        hostname: fc.domain(),
        ip: fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 6 })),
        answers: fc.array(fc.record({ zone: zoneArb, answer: answerArb }), { maxLength: 3 })
      }),
      { maxLength: 3 }
    )
  })
  it("is total, fits its schema, and is listed only on a real listing", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = analyse(input, now)
        expect(() => Schema.encodeSync(BlocklistResult)(r)).not.toThrow()
        expect(r.summary.listedServers).toBeLessThanOrEqual(r.summary.serversChecked)
        for (const s of r.mailServers)
          for (const b of s.blacklistResult.blacklists) expect(b.listed).toBe(b.status === "listed")
        if (input.mxStatus === "unknown") expect(r.status).toBe("unknown")
        if (r.status === "pass") expect(r.summary.listedServers).toBe(0)
      })
    )
  })
})
