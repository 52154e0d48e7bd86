import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Resolver, type FakeZone } from "../../src/net/Resolver.ts"
import { Fact, Facts, makeWith, mxSet } from "../../src/scan/Facts.ts"

const zone: FakeZone = {
  "example.com TXT": ["v=spf1 mx include:_spf.example.com a -all", "google-site-verification=x"],
  "_spf.example.com TXT": ["v=spf1 mx ip4:192.0.2.0/24"],
  "example.com MX": ["10 mx1.example.com.", "20 mx2.example.com."],
  "example.com A": ["192.0.2.10"],
  "mx1.example.com A": ["192.0.2.1"],
  "mx2.example.com A": ["192.0.2.2"],
  "mx2.example.com AAAA": ["2001:db8::2"],
  "broken.com MX": "SERVFAIL",
  "nomail.org MX": ["0 ."]
}

/** The fake resolver, with every question it is asked written down. */
const counting = Effect.gen(function* () {
  const resolver = yield* Resolver
  const asked: Array<string> = []
  const note = <A, E>(what: string, e: Effect.Effect<A, E>) => Effect.suspend(() => (asked.push(what), e))
  return {
    asked,
    dns: {
      txt: (name: string) => note(`${name} TXT`, resolver.txt(name)),
      addresses: (host: string) => note(`${host} A/AAAA`, resolver.addresses(host)),
      mx: (name: string) => note(`${name} MX`, resolver.mx(name))
    } as Pick<Resolver, "txt" | "addresses" | "mx">
  }
}).pipe(Effect.provide(Resolver.Test(zone)))

describe("Facts", () => {
  it.effect("asks each DNS question once, however often and concurrently facts are read", () =>
    Effect.gen(function* () {
      const { asked, dns } = yield* counting
      const facts = makeWith(dns, "Example.COM.")
      const [spf1, spf2, mx1] = yield* Effect.all([facts.spf, facts.spf, facts.mx, facts.mxHosts], {
        concurrency: "unbounded"
      })
      yield* facts.spf
      yield* facts.txt("example.com")
      yield* facts.mxHosts
      expect(spf1).toEqual(spf2)
      expect(spf1?.lookups).toBe(4)
      expect(mx1?.records).toEqual([
        { priority: 10, host: "mx1.example.com" },
        { priority: 20, host: "mx2.example.com" }
      ])
      const counts = new Map<string, number>()
      for (const q of asked) counts.set(q, (counts.get(q) ?? 0) + 1)
      expect([...counts.values()].every((n) => n === 1)).toBe(true)
      // the SPF 'mx' terms and the MX check share the same lookups
      expect(counts.get("example.com MX")).toBe(1)
      expect(counts.get("mx1.example.com A/AAAA")).toBe(1)
    })
  )

  it.effect("memoises failures too: a SERVFAIL is asked once and stays a DnsError", () =>
    Effect.gen(function* () {
      const { asked, dns } = yield* counting
      const facts = makeWith(dns, "broken.com")
      const a = yield* Effect.either(facts.mx)
      const b = yield* Effect.either(facts.mx)
      expect(a._tag).toBe("Left")
      expect(b._tag).toBe("Left")
      expect(asked.filter((q) => q === "broken.com MX")).toHaveLength(1)
    })
  )

  it.effect("custom facts are computed once per scan", () =>
    Effect.gen(function* () {
      const { dns } = yield* counting
      const facts = makeWith(dns, "example.com")
      let runs = 0
      const Probe = Fact.define("test/probe", (f) => Effect.sync(() => (runs++, f.domain)))
      const [x, y] = yield* Effect.all([facts.get(Probe), facts.get(Probe)], { concurrency: 2 })
      expect([x, y, runs]).toEqual(["example.com", "example.com", 1])
    })
  )

  it.effect("is available as a service over the Resolver", () =>
    Effect.gen(function* () {
      const facts = yield* Facts
      expect((yield* facts.mx).nullMx).toBe(true)
    }).pipe(Effect.provide(Facts.layer("nomail.org")), Effect.provide(Resolver.Test(zone)))
  )

  it("reads null MX per RFC 7505", () => {
    expect(mxSet([{ priority: 0, exchange: "" }])).toMatchObject({
      nullMx: true,
      nullMxMixed: false,
      implicit: false
    })
    expect(
      mxSet([
        { priority: 0, exchange: "" },
        { priority: 10, exchange: "mx.example" }
      ]).nullMxMixed
    ).toBe(true)
    expect(mxSet([]).implicit).toBe(true)
  })
})
