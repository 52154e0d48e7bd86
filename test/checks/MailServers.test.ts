import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Facts } from "../../src/checks/Facts.ts"
import { MailServers, targets } from "../../src/checks/MailServers.ts"
import { Resolver, resolverOver } from "../../src/net/Resolver.ts"
import { withFacts } from "../../src/scan/Scanner.ts"
import { fakeNet } from "./facts.ts"

const servers = Effect.flatMap(Facts, (facts) => facts.get(MailServers))

const run = (zone: Parameters<typeof Resolver.Test>[0], domain = "example.com") =>
  withFacts(domain, servers).pipe(Effect.provide(fakeNet({ zone })))

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
  it.effect("null MX, no MX and a failed MX lookup are told apart", () =>
    Effect.gen(function* () {
      expect((yield* run({ "example.com MX": ["0 ."] })).mxStatus).toBe("null-mx")
      expect((yield* run({ "example.com A": ["192.0.2.1"] })).mxStatus).toBe("none")
      expect((yield* run({ "example.com MX": "TIMEOUT" })).mxStatus).toBe("unknown")
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
      const [one, two] = yield* withFacts("example.com", Effect.all([servers, servers])).pipe(
        Effect.provide(counting),
        Effect.provide(fakeNet())
      )
      expect(one).toBe(two)
      expect(asked).toBe(1)
    })
  )
})
