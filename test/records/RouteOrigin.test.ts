import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  covers,
  originName,
  parseOriginTxt,
  parsePrefix,
  parseVrpJson,
  prefixText,
  validate,
  type Vrp
} from "../../src/records/RouteOrigin.ts"

const p = (text: string) => parsePrefix(text)!
const vrp = (asn: number, prefix: string, maxLength: number): Vrp => ({ asn, prefix: p(prefix), maxLength })

describe("RFC 6811 route-origin validation", () => {
  const vrps = [
    vrp(64500, "192.0.2.0/24", 24),
    vrp(64501, "198.51.100.0/22", 24),
    vrp(64502, "2001:db8::/32", 48)
  ]

  it("valid: covered, same origin, not longer than maxLength", () => {
    expect(validate({ prefix: p("192.0.2.0/24"), asn: 64500 }, vrps).state).toBe("valid")
    expect(validate({ prefix: p("198.51.101.0/24"), asn: 64501 }, vrps).state).toBe("valid")
    expect(validate({ prefix: p("2001:db8:1::/48"), asn: 64502 }, vrps).state).toBe("valid")
  })

  it("invalid: covered, but another origin or a longer prefix", () => {
    expect(validate({ prefix: p("192.0.2.0/24"), asn: 64666 }, vrps).state).toBe("invalid")
    expect(validate({ prefix: p("192.0.2.128/25"), asn: 64500 }, vrps).state).toBe("invalid")
  })

  it("not-found: no VRP covers it; AS 0 matches no route (RFC 6483 §4)", () => {
    expect(validate({ prefix: p("203.0.113.0/24"), asn: 64500 }, vrps).state).toBe("not-found")
    expect(validate({ prefix: p("203.0.113.0/24"), asn: 0 }, [vrp(0, "203.0.113.0/24", 24)]).state).toBe(
      "invalid"
    )
  })

  const arbV4Prefix = fc
    .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 32 }))
    .map(([n, len]) => {
      const ip = [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".")
      const masked = len === 0 ? 0n : (BigInt(n) >> BigInt(32 - len)) << BigInt(32 - len)
      return { family: 4 as const, base: masked, prefix: len, ip }
    })

  it("agrees with its definition over generated routes and VRPs (property)", () =>
    fc.assert(
      fc.property(
        arbV4Prefix,
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.tuple(arbV4Prefix, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 32 })), {
          maxLength: 8
        }),
        (route, asn, raw) => {
          const vs = raw.map(([prefix, a, extra]) => ({
            asn: a,
            prefix,
            maxLength: Math.min(32, prefix.prefix + (extra % 8))
          }))
          const { state } = validate({ prefix: route, asn }, vs)
          const covering = vs.filter((v) => covers(v.prefix, route))
          const matching = covering.filter((v) => v.asn !== 0 && v.asn === asn && route.prefix <= v.maxLength)
          expect(state).toBe(covering.length === 0 ? "not-found" : matching.length > 0 ? "valid" : "invalid")
          // A VRP exactly for the route makes it valid, whatever else there is.
          if (asn !== 0)
            expect(
              validate({ prefix: route, asn }, [...vs, { asn, prefix: route, maxLength: route.prefix }]).state
            ).toBe("valid")
        }
      )
    ))
})

describe("the VRP export (rpki-client, Routinator)", () => {
  it("reads roas with AS numbers written either way, counting what is not a VRP", () => {
    const file = parseVrpJson(
      JSON.stringify({
        metadata: { buildtime: "2026-01-01T00:00:00Z" },
        roas: [
          { asn: "AS64500", prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
          { asn: 64501, prefix: "2001:db8::/32", maxLength: 48, ta: "arin" },
          { asn: "AS1", prefix: "192.0.2.0/24", maxLength: 16 },
          { asn: "x", prefix: "192.0.2.0/24", maxLength: 24 }
        ]
      })
    )
    expect(file?.vrps.map((v) => [v.asn, prefixText(v.prefix), v.maxLength])).toEqual([
      [64500, "192.0.2.0/24", 24],
      [64501, "2001:db8::/32", 48]
    ])
    expect(file?.skipped).toBe(2)
    expect(parseVrpJson("[]")).toBeNull()
    expect(parseVrpJson("not json")).toBeNull()
  })

  it("never throws on arbitrary input (property)", () =>
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => void parseVrpJson(text))))
})

describe("origin zones over DNS", () => {
  it("names an address as Team Cymru's zones do", () => {
    expect(originName("192.0.2.25", "origin.asn.cymru.com", "origin6.asn.cymru.com")).toBe(
      "25.2.0.192.origin.asn.cymru.com"
    )
    expect(originName("2001:db8::1", "o4", "o6")).toBe(`1.${"0.".repeat(23)}8.b.d.0.1.0.0.2.o6`)
    expect(originName("not an ip", "o4", "o6")).toBeNull()
  })

  it("reads each origin of an answer as a route", () => {
    expect(
      parseOriginTxt("64500 64501 | 192.0.2.0/24 | US | arin | 2000-01-01").map((r) => [
        r.asn,
        prefixText(r.prefix)
      ])
    ).toEqual([
      [64500, "192.0.2.0/24"],
      [64501, "192.0.2.0/24"]
    ])
    expect(parseOriginTxt("garbage")).toEqual([])
  })
})
