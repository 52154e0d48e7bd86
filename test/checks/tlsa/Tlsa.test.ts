import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { analyse, gather, recordIssues } from "../../../src/checks/tlsa/Tlsa.ts"
import { Resolver } from "../../../src/net/Resolver.ts"

const D = "a".repeat(64)

describe("Tlsa check", () => {
  it.effect("validated 3 1 1 on every MX passes with descriptions", () =>
    Effect.gen(function* () {
      const r = analyse(yield* gather("example.com"))
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
    }).pipe(
      Effect.provide(
        Resolver.Test({
          "example.com MX": ["10 mx1.example.com."],
          "_25._tcp.mx1.example.com TLSA": { rdata: [`3 1 1 ${D}`], ad: true }
        })
      )
    )
  )

  it.effect("unvalidated, bogus, missing and failed lookups are told apart", () =>
    Effect.gen(function* () {
      const r = analyse(yield* gather("example.com"))
      const by = Object.fromEntries(r.hosts.map((h) => [h.host, h]))
      expect(by["a.example.com"]).toMatchObject({ exists: true, dnssecValidated: false, status: "fail" })
      expect(by["b.example.com"]).toMatchObject({ exists: true, dnssecValidated: false, status: "fail" })
      expect(by["b.example.com"]!.issues[0]).toContain("bogus")
      expect(by["c.example.com"]).toMatchObject({ exists: false, status: "missing" })
      expect(by["d.example.com"]).toMatchObject({ exists: false, status: "unknown" })
      expect(r.status).toBe("fail")
    }).pipe(
      Effect.provide(
        Resolver.Test({
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
    )
  )

  it.effect("no MX is not-applicable; MX failure is unknown", () =>
    Effect.gen(function* () {
      expect(analyse(yield* gather("nomx.example")).status).toBe("not-applicable")
      expect(analyse(yield* gather("broken.example")).status).toBe("unknown")
    }).pipe(
      Effect.provide(Resolver.Test({ "nomx.example A": ["192.0.2.1"], "broken.example MX": "SERVFAIL" }))
    )
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
