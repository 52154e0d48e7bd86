import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import fc from "fast-check"
import { Facts } from "../../../src/kernel/Facts.ts"
import { bareHost, canonicalName, MailServers, targets } from "../../../src/kernel/MailServers.ts"
import { Resolver } from "../../../src/net/Resolver.ts"
import { resolverOver } from "../../../src/net/ResolverShape.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet } from "../facts.ts"
import { domain as toDomain } from "../../support/domain.ts"

const servers = Effect.flatMap(Facts, (facts) => facts.get(MailServers))

const run = (zone: Parameters<typeof Resolver.Test>[0], domain = "example.com") =>
  withFacts(toDomain(domain), servers).pipe(Effect.provide(fakeNet({ zone })))

describe("MailServers (RFC 5321 5.1, RFC 7505)", () => {
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
  it.effect("null MX, implicit MX, no MX and a failed MX lookup are told apart", () =>
    Effect.gen(function* () {
      expect((yield* run({ "example.com MX": ["0 ."], "example.com A": ["192.0.2.1"] })).mxStatus).toBe(
        "null-mx"
      )
      expect((yield* run({ "example.com A": ["192.0.2.1"] })).mxStatus).toBe("implicit")
      expect((yield* run({ "example.com TXT": ["v=spf1 -all"] })).mxStatus).toBe("none")
      expect((yield* run({}, "nowhere.example")).mxStatus).toBe("none")
      // A failed MX lookup is unknown, never implicit, whatever the A record says (RFC 5321 5.1 needs an answer).
      for (const failure of ["TIMEOUT", "SERVFAIL"] as const) {
        const s = yield* run({ "example.com MX": failure, "example.com A": ["192.0.2.1"] })
        expect(s.mxStatus).toBe("unknown")
        expect(s.hosts).toEqual([])
      }
    })
  )
  it.effect("no MX RRset: the domain itself is the one mail host, at preference 0 (RFC 5321 5.1)", () =>
    Effect.gen(function* () {
      const s = yield* run({
        "example.com A": ["192.0.2.1"],
        "example.com AAAA": ["2001:db8::1"],
        "example.com TXT": ["v=spf1 a -all"]
      })
      expect(s.mxRecords).toEqual([])
      expect(s.hosts).toEqual([
        {
          host: "example.com",
          priority: 0,
          implicit: true,
          status: "ok",
          v4: ["192.0.2.1"],
          v6: ["2001:db8::1"]
        }
      ])
      expect(targets(s).map((t) => [t.host, t.ip, t.implicit])).toEqual([
        ["example.com", "192.0.2.1", true],
        ["example.com", "2001:db8::1", true]
      ])
    })
  )
  it.effect("a CNAME at the domain: the implicit MX is the name the chain ends in (RFC 5321 5.1)", () =>
    Effect.gen(function* () {
      const s = yield* run(
        {
          "alias.example.com CNAME": ["hop.example.net."],
          "hop.example.net CNAME": ["mail.example.net."],
          "mail.example.net A": ["192.0.2.7"]
        },
        "alias.example.com"
      )
      expect(s.mxStatus).toBe("implicit")
      expect(s.hosts.map((h) => [h.host, h.implicit, h.v4])).toEqual([
        ["mail.example.net", true, ["192.0.2.7"]]
      ])
    })
  )
  it.effect("the implicit MX's address lookup failing leaves that host unknown, not absent", () =>
    Effect.gen(function* () {
      const s = yield* run({ "example.com A": "SERVFAIL", "example.com TXT": ["v=spf1 -all"] })
      expect(s.mxStatus).toBe("implicit")
      expect(s.hosts.map((h) => [h.host, h.status, h.implicit])).toEqual([["example.com", "unknown", true]])
      expect(targets(s)).toEqual([])
    })
  )
  it.effect("MX records mark no host implicit, even the domain named as its own MX", () =>
    Effect.gen(function* () {
      const s = yield* run({ "example.com MX": ["10 example.com."], "example.com A": ["192.0.2.1"] })
      expect(s.mxStatus).toBe("answer")
      expect(s.hosts.map((h) => [h.host, h.priority, h.implicit])).toEqual([["example.com", 10, false]])
    })
  )
  it.effect("one reading per scan (one MX question however many checks ask)", () =>
    Effect.gen(function* () {
      let asked = 0
      const fake = Resolver.Test({
        "example.com MX": ["10 mx.example.com."],
        "mx.example.com A": ["192.0.2.1"]
      })
      const counting = Layer.effect(
        Resolver,
        Effect.map(Resolver, (resolver) =>
          Resolver.make(
            resolverOver((name, type, options, question) => {
              if (type === "MX") asked++
              resolver.ask(name, type, options, question)
            }, resolver.upstreams)
          )
        )
      ).pipe(Layer.provide(fake))
      const [one, two] = yield* withFacts(toDomain("example.com"), Effect.all([servers, servers])).pipe(
        Effect.provide(counting),
        Effect.provide(fakeNet())
      )
      expect(one).toBe(two)
      expect(asked).toBe(1)
    })
  )
})

describe("canonicalName (RFC 1034 3.6.2, RFC 5321 5.1) (property)", () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/)
  it("follows a chain of CNAMEs in any order to its end, and ends on a loop", () => {
    fc.assert(
      fc.property(fc.uniqueArray(label, { minLength: 1, maxLength: 9 }), fc.boolean(), (names, loop) => {
        const hosts = names.map((n) => `${n}.example.`)
        const chain = hosts.slice(0, -1).map((h, i) => ({ name: h, type: "CNAME", data: hosts[i + 1]! }))
        const records = [...chain].reverse()
        if (!loop) {
          expect(canonicalName(hosts[0]!, records)).toBe(bareHost(hosts.at(-1)!))
          expect(canonicalName("unrelated.example", records)).toBe("unrelated.example")
        } else {
          // the last name points back to the first: the walk stops after at most 8 hops
          const looped = [...records, { name: hosts.at(-1)!, type: "CNAME", data: hosts[0]! }]
          expect(hosts.map(bareHost)).toContain(canonicalName(hosts[0]!, looped))
        }
      })
    )
  })
})
