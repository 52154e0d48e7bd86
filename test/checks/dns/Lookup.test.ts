import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { analyse, DEFAULT_TYPES, gather, parseTypes } from "../../../src/checks/dns/Lookup.ts"
import { RecordTypes } from "../../../src/net/Dns.ts"
import { Resolver } from "../../../src/net/Resolver.ts"

describe("parseTypes", () => {
  it("defaults to all spec types, accepts type and types, rejects unknown names", () => {
    expect(parseTypes(undefined, undefined)).toEqual(Either.right(DEFAULT_TYPES))
    expect(parseTypes("mx", undefined)).toEqual(Either.right(["MX"]))
    expect(parseTypes(undefined, "A, mx,TXT,A")).toEqual(Either.right(["A", "MX", "TXT"]))
    const bad = parseTypes("AXFR", undefined)
    expect(Either.isLeft(bad) && bad.left).toContain("AXFR")
    expect(Either.isLeft(bad) && bad.left).toContain("CAA")
  })
  it("never throws; accepts exactly known types (property)", () =>
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.string()), (a, b) => {
        const r = parseTypes(a ?? undefined, b ?? undefined)
        if (Either.isRight(r)) return r.right.every((t) => (RecordTypes as ReadonlyArray<string>).includes(t))
        return r.left.startsWith("unknown record type")
      })
    ))
})

describe("Lookup", () => {
  const zone = Resolver.Test({
    "example.com A": {
      rdata: ["192.0.2.1"],
      ad: true,
      rrsig: ["A 13 2 300 20270101000000 20260101000000 1 example.com. c2ln"]
    },
    "example.com MX": ["10 mx.example.com."],
    "example.com TXT": ['"v=spf1 " "-all"'],
    "www.example.com CNAME": ["example.com."],
    "example.com AAAA": "TIMEOUT"
  })
  it.effect("returns shape B records per type; failures are errors, not empty lists", () =>
    Effect.gen(function* () {
      const r = analyse(yield* gather("Example.com.", ["A", "MX", "TXT", "AAAA", "CAA"]))
      expect(r.domain).toBe("example.com")
      expect(r.records.A).toEqual([{ type: "A", name: "example.com", ttl: 300, data: "192.0.2.1" }])
      expect(r.records.MX).toEqual([
        { type: "MX", name: "example.com", ttl: 300, data: "10 mx.example.com." }
      ])
      expect(r.records.TXT?.[0]?.data).toBe("v=spf1 -all")
      expect(r.records.CAA).toEqual([])
      expect(r.records.AAAA).toBeUndefined()
      expect(r.outcomes).toMatchObject({ AAAA: "timeout", CAA: "nodata", A: "answer" })
      expect(r.errors.map((e) => e.type)).toEqual(["AAAA"])
      expect(r.resolver).toBe("192.0.2.53:53")
      expect(r.success).toBe(true)
      const www = analyse(yield* gather("www.example.com", ["A"]))
      expect(www.records.A?.map((x) => x.type)).toEqual(["CNAME", "A"])
    }).pipe(Effect.provide(zone))
  )
})
