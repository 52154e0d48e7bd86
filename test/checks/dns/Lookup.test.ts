import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema, TestClock } from "effect"
import * as fc from "fast-check"
import {
  analyse,
  DEFAULT_TYPES,
  gatherTypes,
  Lookup,
  LookupResult,
  parseTypes
} from "../../../src/checks/dns/Lookup.ts"
import { DnsError, type RecordType, RecordTypes } from "../../../src/net/DnsTypes.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet, runFake } from "../facts.ts"
import { domain as toDomain } from "../../support/domain.ts"

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

const NOW = new Date("2026-11-22T00:00:00Z")

const zone: FakeZone = {
  "example.com A": {
    rdata: ["192.0.2.1"],
    ad: true,
    rrsig: ["A 13 2 300 20270101000000 20260101000000 1 example.com. c2ln"]
  },
  "example.com MX": ["10 mx.example.com."],
  "example.com TXT": ['"v=spf1 " "-all"'],
  "www.example.com CNAME": ["example.com."],
  "example.com AAAA": "TIMEOUT"
}

/** `GET /dns/lookup?types=`: the parameterised gather over a scan's Facts, analysed at NOW. */
const lookup = (domain: string, types: ReadonlyArray<RecordType>) =>
  withFacts(toDomain(domain), gatherTypes(types)).pipe(
    Effect.map((gathered) => analyse(gathered, NOW)),
    Effect.provide(fakeNet({ zone }))
  )

describe("Lookup", () => {
  it.effect("returns shape B records per type; failures are errors, not empty lists", () =>
    Effect.gen(function* () {
      const r = yield* lookup("Example.com.", ["A", "MX", "TXT", "AAAA", "CAA"])
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
      expect(r.timestamp).toBe(NOW.toISOString())
      const www = yield* lookup("www.example.com", ["A"])
      expect(www.records.A?.map((x) => x.type)).toEqual(["CNAME", "A"])
    })
  )

  it.effect("the check asks the default types, its timestamp from the clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW.getTime())
      const r = yield* runFake(Lookup, "example.com", { zone })
      expect(Object.keys(r.outcomes).sort()).toEqual([...DEFAULT_TYPES].sort())
      expect(r.timestamp).toBe(NOW.toISOString())
      expect(r.success).toBe(true)
    })
  )
})

describe("Lookup.analyse (property)", () => {
  const answerArb = (type: RecordType) =>
    fc.record({
      name: fc.constant("example.com"),
      type: fc.constant(type),
      outcome: fc.constantFrom("answer" as const, "nodata" as const, "nxdomain" as const),
      rcode: fc.constant("NOERROR"),
      flags: fc.record({
        aa: fc.boolean(),
        tc: fc.boolean(),
        ra: fc.boolean(),
        ad: fc.boolean(),
        cd: fc.boolean()
      }),
      answers: fc.array(
        fc.constantFrom(type, "CNAME", "RRSIG").chain((t) =>
          fc.record({
            name: fc.constant("example.com"),
            type: fc.constant(t),
            ttl: fc.nat(86_400),
            // TXT data is its character-strings (RFC 1035 3.3.14); other types' is presentation text.
            data: t === "TXT" ? fc.array(fc.string(), { maxLength: 3 }) : fc.string(),
            text: fc.string()
          })
        ),
        { maxLength: 3 }
      ),
      authority: fc.constant([]),
      resolver: fc.constantFrom("192.0.2.53:53", "198.51.100.53:53"),
      elapsedMs: fc.nat(5_000),
      fromCache: fc.boolean()
    })
  const resultArb = fc.constantFrom(...RecordTypes).chain((type) =>
    fc.record({
      type: fc.constant(type),
      result: fc.oneof(
        answerArb(type).map((a) => Either.right(a)),
        fc
          .constantFrom("timeout" as const, "servfail" as const, "refused" as const)
          .map((reason) => Either.left(new DnsError({ name: "example.com", type, reason, message: reason })))
      )
    })
  )
  it("never throws, matches its schema, and succeeds exactly when some question was answered", () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(resultArb, { selector: (r) => r.type, maxLength: 6 }),
        fc.nat(10_000),
        (results, responseTime) => {
          const r = analyse({ domain: "example.com", results, responseTime }, NOW)
          expect(Schema.is(LookupResult)(r)).toBe(true)
          expect(r.success).toBe(results.some((x) => Either.isRight(x.result)))
          for (const e of r.errors) expect(r.records[e.type]).toBeUndefined()
          expect(
            Object.values(r.records)
              .flat()
              .some((x) => x.type === "RRSIG")
          ).toBe(false)
        }
      )
    ))
})
