import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mailServers, targets } from "../../src/checks/MailServers.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Facts } from "../../src/scan/Facts.ts"

const run = (zone: Parameters<typeof Resolver.Test>[0], domain = "example.com") =>
  mailServers(domain).pipe(Effect.provide(Resolver.Test(zone)))

describe("mailServers (RFC 5321 5.1, RFC 7505)", () => {
  it.effect("MX hosts by priority with their addresses; a host failing its lookup is unknown", () =>
    Effect.gen(function* () {
      const s = yield* run({
        "example.com MX": ["20 mx2.example.com.", "10 mx1.example.com."],
        "mx1.example.com A": ["192.0.2.1"],
        "mx1.example.com AAAA": ["2001:db8::1"],
        "mx2.example.com A": "SERVFAIL"
      })
      expect(s.mxStatus).toBe("answer")
      expect(s.hosts.map((h) => [h.host, h.status])).toEqual([
        ["mx1.example.com", "ok"],
        ["mx2.example.com", "unknown"]
      ])
      expect(targets(s).map((t) => [t.ip, t.family])).toEqual([
        ["192.0.2.1", 4],
        ["2001:db8::1", 6]
      ])
    })
  )
  it.effect("null MX, no MX and a failed MX lookup are told apart", () =>
    Effect.gen(function* () {
      expect((yield* run({ "example.com MX": ["0 ."] })).mxStatus).toBe("null-mx")
      expect((yield* run({ "example.com A": ["192.0.2.1"] })).mxStatus).toBe("none")
      expect((yield* run({ "example.com MX": "TIMEOUT" })).mxStatus).toBe("unknown")
    })
  )
  it.effect("inside a scan, the scan's Facts are used (one MX question per scan)", () =>
    Effect.gen(function* () {
      let asked = 0
      const counting = Resolver.Test({
        "example.com MX": ["10 mx.example.com."],
        "mx.example.com A": ["192.0.2.1"]
      })
      const program = Effect.gen(function* () {
        const resolver = yield* Resolver
        const facts = Facts.layer("example.com")
        const spy = Resolver.make({
          ...resolver,
          mx: (d: string) => Effect.suspend(() => (asked++, resolver.mx(d)))
        })
        const a = yield* Effect.all([mailServers("example.com"), mailServers("example.com")]).pipe(
          Effect.provide(facts),
          Effect.provideService(Resolver, spy)
        )
        return a
      })
      const [one, two] = yield* program.pipe(Effect.provide(counting))
      expect(one).toBe(two)
      expect(asked).toBe(1)
    })
  )
})
