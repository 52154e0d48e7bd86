import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as fc from "fast-check"
import type { Gathered } from "../../../src/checks/dnssec/Dnssec.ts"
import {
  analyse,
  readTlsa,
  recordIssues,
  Tlsa,
  type TlsaFacts,
  TlsaResult
} from "../../../src/checks/tlsa/Tlsa.ts"
import { DnsError } from "../../../src/net/DnsTypes.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet } from "../facts.ts"
import { probe, stalled } from "../fixtures.ts"
import { domain as toDomain } from "../../support/domain.ts"

const D = "a".repeat(64)

/** What the check gathers for `domain` over a fake zone. */
const gather = (domain: string, zone: FakeZone) =>
  withFacts(toDomain(domain), Tlsa.gather).pipe(Effect.provide(fakeNet({ zone })))

describe("Tlsa check", () => {
  it.effect("validated 3 1 1 on every MX passes with descriptions", () =>
    Effect.gen(function* () {
      const r = readTlsa(
        yield* gather("example.com", {
          "example.com MX": ["10 mx1.example.com."],
          "_25._tcp.mx1.example.com TLSA": { rdata: [`3 1 1 ${D}`], ad: true }
        })
      )
      expect(r).toMatchObject({
        domain: "example.com",
        port: 25,
        protocol: "tcp",
        tlsaDomain: "_25._tcp.mx1.example.com",
        exists: true,
        dnssecValidated: true,
        status: "pass"
      })
      expect(r.records[0]).toMatchObject({ usage: 3, selector: 1, matchingType: 1, usageName: "DANE-EE" })
      expect(r.records[0]!.usageDescription).toContain("DANE-EE")
      expect(r.records[0]!.selectorDescription).toContain("SubjectPublicKeyInfo")
      expect(r.records[0]!.matchingTypeDescription).toContain("SHA-256")
    })
  )

  it.effect("unvalidated, bogus, missing and failed lookups are told apart", () =>
    Effect.gen(function* () {
      const r = analyse(
        yield* gather("example.com", {
          "example.com MX": [
            "10 a.example.com.",
            "20 b.example.com.",
            "30 c.example.com.",
            "40 d.example.com."
          ],
          "_25._tcp.a.example.com TLSA": [`3 1 1 ${D}`],
          "_25._tcp.b.example.com TLSA": { rdata: [`3 1 1 ${D}`], bogus: true },
          "c.example.com A": ["192.0.2.3"],
          "_25._tcp.d.example.com TLSA": "TIMEOUT"
        })
      )
      const by = Object.fromEntries(r.hosts.map((h) => [h.host, h]))
      expect(by["a.example.com"]).toMatchObject({ exists: true, dnssecValidated: false, status: "fail" })
      expect(by["b.example.com"]).toMatchObject({ exists: true, dnssecValidated: false, status: "fail" })
      expect(by["b.example.com"]!.issues[0]).toContain("bogus")
      expect(by["c.example.com"]).toMatchObject({ exists: false, status: "missing" })
      expect(by["d.example.com"]).toMatchObject({ exists: false, status: "unknown" })
      expect(r.status).toBe("fail")
    })
  )

  it.effect("no MX and no address is not-applicable; MX failure is unknown", () =>
    Effect.gen(function* () {
      const zone = { "nomx.example TXT": ["v=spf1 -all"], "broken.example MX": "SERVFAIL" } as const
      expect(analyse(yield* gather("nomx.example", zone)).status).toBe("not-applicable")
      expect(analyse(yield* gather("broken.example", zone)).status).toBe("unknown")
    })
  )

  it.effect("no MX but an A record: TLSA of the implicit MX at _25._tcp.<domain> (RFC 7672 2.2.3)", () =>
    Effect.gen(function* () {
      const zone = { "implicit.example A": ["192.0.2.1"] } as const
      const r = analyse(yield* gather("implicit.example", zone))
      expect(r.status).toBe("missing")
      expect(r.tlsaDomain).toBe("_25._tcp.implicit.example")
      expect(r.hosts.map((h) => [h.host, h.priority, h.implicit, h.exists])).toEqual([
        ["implicit.example", 0, true, false]
      ])
    })
  )

  it("record issues: PKIX usages and wrong digest lengths (property: never throws)", () => {
    expect(recordIssues({ usage: 1, selector: 1, matchingType: 1, certificate: D })[0]).toContain("PKIX")
    expect(recordIssues({ usage: 3, selector: 1, matchingType: 1, certificate: "ab" })[0]).toContain(
      "1 bytes, expected 32"
    )
    expect(recordIssues({ usage: 3, selector: 1, matchingType: 1, certificate: D })).toEqual([])
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.nat(300),
        fc.nat(300),
        fc.string(),
        (usage, selector, matchingType, certificate) =>
          Array.isArray(recordIssues({ usage, selector, matchingType, certificate }))
      )
    )
  })
})

describe("analyse (property)", () => {
  const flags = (ad: boolean) => ({ aa: false, tc: false, ra: true, ad, cd: false })
  const tlsa = (usage: number, selector: number, matchingType: number, certificate: string) => ({
    name: "_25._tcp.mx.example.com",
    type: "TLSA",
    ttl: 300,
    data: { usage, selector, matchingType, certificate },
    text: `${usage} ${selector} ${matchingType} ${certificate}`
  })
  const lookupArb: fc.Arbitrary<Gathered> = fc.oneof(
    fc
      .record({
        records: fc.array(fc.tuple(fc.nat(4), fc.nat(2), fc.nat(3), fc.constantFrom(D, "ab", "zz", "")), {
          maxLength: 3
        }),
        ad: fc.boolean(),
        bogus: fc.boolean()
      })
      .map(({ records, ad, bogus }): Gathered => ({
        _tag: "Answer",
        bogus,
        answer: {
          name: "_25._tcp.mx.example.com",
          type: "TLSA",
          outcome: records.length > 0 ? "answer" : "nodata",
          rcode: "NOERROR",
          flags: flags(ad),
          answers: records.map((r) => tlsa(...r)),
          authority: [],
          resolver: "192.0.2.53:53",
          elapsedMs: 1,
          fromCache: false
        }
      })),
    fc.constant<Gathered>({
      _tag: "Failed",
      error: new DnsError({ name: "x", type: "TLSA", reason: "timeout", message: "t" })
    })
  )
  const factsArb: fc.Arbitrary<TlsaFacts> = fc.record({
    domain: fc.domain(),
    mxError: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
    hosts: fc.array(
      fc.record({
        host: fc.constantFrom("mx1.example.com", "mx2.example.com"),
        priority: fc.nat(100),
        lookup: lookupArb,
        probes: fc.array(
          fc.constantFrom(probe({ starttlsOffered: false }), stalled("banner"), probe({ tls: null })),
          { maxLength: 2 }
        )
      }),
      { maxLength: 3 }
    )
  })
  it("is total, fits its schema, and is never DANE-valid without validation and a match", () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        const r = analyse(facts)
        expect(() => Schema.encodeSync(TlsaResult)(r)).not.toThrow()
        // none of these probes presents a chain, so nothing can match
        expect(r.dane.valid).toBe(false)
        expect(r.dane.hostsWithTlsa).toBe(r.hosts.filter((h) => h.dane !== null).length)
        if (facts.mxError !== null) expect(r.status).toBe("unknown")
        for (const h of r.hosts) if (h.dane?.daneValid) expect(h.dnssecValidated).toBe(true)
      })
    )
  })
})
