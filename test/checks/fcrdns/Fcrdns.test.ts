import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import {
  type AddressInput,
  analyse,
  analyseAddress,
  CITATION_URL,
  Fcrdns,
  FcrdnsReport,
  type FcrdnsInput,
  looksGeneric,
  withApiUrl
} from "../../../src/checks/fcrdns/Fcrdns.ts"
import { runFake } from "../facts.ts"

const now = new Date("2026-11-22T00:00:00.000Z")

const addr = (over: Partial<AddressInput>): AddressInput => ({
  hostname: "mx.example.com",
  ip: "192.0.2.25",
  ptr: { outcome: "answer", value: ["mx.example.com."] },
  forward: { "mx.example.com.": { outcome: "answer", value: ["192.0.2.25"] } },
  ...over
})

describe("analyseAddress (RFC 1912 2.1)", () => {
  const cases: Array<[string, Partial<AddressInput>, string, boolean | null]> = [
    ["confirmed", {}, "pass", true],
    ["no PTR", { ptr: { outcome: "none" }, forward: {} }, "fail", false],
    ["PTR lookup failed", { ptr: { outcome: "unknown", reason: "timeout" }, forward: {} }, "unknown", null],
    [
      "PTR does not resolve back",
      { forward: { "mx.example.com.": { outcome: "answer", value: ["192.0.2.26"] } } },
      "fail",
      false
    ],
    ["PTR name has no address", { forward: { "mx.example.com.": { outcome: "none" } } }, "fail", false],
    [
      "forward lookup failed",
      { forward: { "mx.example.com.": { outcome: "unknown", reason: "servfail" } } },
      "unknown",
      null
    ],
    [
      "one of two PTR names confirms",
      {
        ptr: { outcome: "answer", value: ["a.example.net", "mx.example.com"] },
        forward: {
          "a.example.net": { outcome: "answer", value: ["198.51.100.1"] },
          "mx.example.com": { outcome: "answer", value: ["192.0.2.25"] }
        }
      },
      "pass",
      true
    ],
    [
      "IPv6 in another notation",
      {
        ip: "2001:db8::25",
        forward: { "mx.example.com.": { outcome: "answer", value: ["2001:0db8:0:0:0:0:0:0025"] } }
      },
      "pass",
      true
    ],
    [
      "generic ISP name",
      {
        ptr: { outcome: "answer", value: ["192-0-2-25.dynamic.isp.example"] },
        forward: { "192-0-2-25.dynamic.isp.example": { outcome: "answer", value: ["192.0.2.25"] } }
      },
      "warning",
      true
    ]
  ]
  it.each(cases)("%s", (_name, over, status, confirmed) => {
    const r = analyseAddress(addr(over))
    expect(r.status).toBe(status)
    expect(r.forwardConfirmed).toBe(confirmed)
  })

  it("generic-name heuristic", () => {
    expect(looksGeneric("host-192-0-2-25.pool.example", "192.0.2.25")).toBe(true)
    expect(looksGeneric("mail.example.com", "192.0.2.25")).toBe(false)
  })

  it("is total, and confirms only with a matching forward answer (property)", () => {
    const lookup = fc.oneof(
      fc.record({
        outcome: fc.constant("answer" as const),
        value: fc.array(fc.oneof(fc.ipV4(), fc.string()))
      }),
      fc.constant({ outcome: "none" as const }),
      fc.record({ outcome: fc.constant("unknown" as const), reason: fc.string() })
    )
    fc.assert(
      fc.property(
        fc.ipV4(),
        fc.array(fc.domain(), { maxLength: 3 }),
        fc.array(lookup, { maxLength: 3 }),
        (ip, names, l) => {
          const forward = Object.fromEntries(names.map((n, i) => [n, l[i] ?? { outcome: "none" as const }]))
          const r = analyseAddress({
            hostname: "mx.test",
            ip,
            ptr: { outcome: "answer", value: names },
            forward
          })
          if (r.forwardConfirmed)
            expect(Object.values(forward).some((f) => f.outcome === "answer" && f.value.includes(ip))).toBe(
              true
            )
          expect(["pass", "warning", "fail", "unknown"]).toContain(r.status)
        }
      )
    )
  })
})

describe("analyse", () => {
  it("carries the spec fields", () => {
    const r = withApiUrl(
      analyse(
        {
          domain: "example.com",
          mxStatus: "answer",
          addresses: [addr({}), addr({ ip: "192.0.2.26", ptr: { outcome: "none" }, forward: {} })]
        },
        now
      ),
      "/api/email/fcrdns?domain=example.com"
    )
    expect(Object.keys(r).sort()).toEqual(
      ["apiUrl", "check", "citationUrl", "description", "domain", "result", "timestamp"].sort()
    )
    expect(r.result.checked).toBe(true)
    expect(r.result.status).toBe("fail")
    expect(r.result.issues).toEqual(["mx.example.com (192.0.2.26): no PTR record for 192.0.2.26"])
    expect(r.citationUrl).toBe(CITATION_URL)
  })
  it("a failed MX lookup is unknown, not an empty pass", () => {
    const r = analyse({ domain: "x.test", mxStatus: "unknown", addresses: [] }, now)
    expect(r.result.status).toBe("unknown")
    expect(r.result.checked).toBe(false)
  })
})

describe("check", () => {
  it.effect("asks PTR then the forward records of each name", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Fcrdns, "example.com", {
        zone: {
          "example.com MX": ["10 mx.example.com."],
          "mx.example.com A": ["192.0.2.25"],
          "mx.example.com AAAA": ["2001:db8::25"],
          "25.2.0.192.in-addr.arpa PTR": ["mx.example.com."],
          "5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa PTR": [
            "other.example.com."
          ],
          "other.example.com AAAA": ["2001:db8::99"]
        }
      })
      const byIp = Object.fromEntries(r.result.results.map((x) => [x.ip, x]))
      expect(byIp["192.0.2.25"]!.status).toBe("pass")
      expect(byIp["192.0.2.25"]!.confirmedName).toBe("mx.example.com")
      expect(byIp["2001:db8::25"]!.status).toBe("fail")
      expect(byIp["2001:db8::25"]!.ptrRecords).toEqual(["other.example.com"])
    })
  )
})

describe("analyse (property)", () => {
  const lookupArb = <A>(value: fc.Arbitrary<A>) =>
    fc.oneof(
      fc.record({ outcome: fc.constant("answer" as const), value }),
      fc.constant({ outcome: "none" as const }),
      fc.record({ outcome: fc.constant("unknown" as const), reason: fc.string({ maxLength: 8 }) })
    )
  const names = fc.array(fc.constantFrom("mx.example.com", "mx.example.com.", "dyn-1.isp.net"), {
    maxLength: 2
  })
  const inputArb: fc.Arbitrary<FcrdnsInput> = fc.record({
    domain: fc.domain(),
    mxStatus: fc.constantFrom("answer" as const, "none" as const, "unknown" as const),
    addresses: fc.array(
      fc.record({
        hostname: fc.constantFrom("mx.example.com", "MX.example.com."),
        ip: fc.oneof(fc.constantFrom("192.0.2.25", "2001:db8::25"), fc.ipV4()),
        ptr: lookupArb(names),
        forward: fc.dictionary(
          fc.constantFrom("mx.example.com", "mx.example.com.", "dyn-1.isp.net"),
          lookupArb(fc.array(fc.constantFrom("192.0.2.25", "2001:db8:0::25", "192.0.2.26"), { maxLength: 2 }))
        )
      }),
      { maxLength: 3 }
    ),
    unresolvedHosts: fc.array(fc.domain(), { maxLength: 2 })
  })
  it("is total, fits its schema, and passes only when every address is confirmed", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = analyse(input, now)
        expect(() => Schema.encodeSync(FcrdnsReport)(r)).not.toThrow()
        expect(r.result.results).toHaveLength(input.addresses.length)
        if (r.result.status === "pass")
          expect(r.result.results.every((x) => x.forwardConfirmed === true)).toBe(true)
        if (input.mxStatus === "unknown") expect(r.result.status).toBe("unknown")
      })
    )
  })
})
