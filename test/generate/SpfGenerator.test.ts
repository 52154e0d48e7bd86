import { describe, expect, it } from "vitest"
import { Either } from "effect"
import fc from "fast-check"
import { generate, type SpfGenerateInput } from "../../src/generate/SpfGenerator.ts"
import { parse } from "../../src/records/SpfParse.ts"
import { runs } from "../support/runs.ts"

const ok = (input: SpfGenerateInput) => {
  const r = generate(input)
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}
const err = (input: unknown) => {
  const r = generate(input as SpfGenerateInput)
  if (Either.isRight(r)) throw new Error(`expected an error for ${JSON.stringify(input)}`)
  return r.left
}

describe("generate/Spf", () => {
  it("builds the record cheap terms first, with the direct lookup count as a minimum", () => {
    const r = ok({
      mechanisms: [
        { type: "include", value: "_spf.google.com" },
        { type: "ip4", value: "192.0.2.0/24" },
        { type: "ip6", value: "2001:db8::/32" }
      ],
      useA: true,
      useMx: true,
      policy: "fail",
      domain: "example.com"
    })
    expect(r.record).toBe("v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 a mx include:_spf.google.com -all")
    expect(r).toMatchObject({ lookups: 3, lookupsIsMinimum: true, policy: "fail" })
    expect(r.dnsEntry).toMatchObject({ type: "TXT", name: "example.com", strings: [r.record] })
    expect(r.dnsEntry.zoneLine).toBe(`example.com. 3600 IN TXT "${r.record}"`)
    expect(r.lengthChecks).toMatchObject({ fitsOneString: true, fitsUdp: true })
  })

  it("accepts policy spellings and warns about weak ones", () => {
    expect(ok({ mechanisms: [], policy: "~all" }).record).toBe("v=spf1 ~all")
    expect(ok({ mechanisms: [{ type: "mx" }], policy: "pass" }).warnings.join()).toMatch(/\+all/)
    expect(ok({ mechanisms: [], policy: "-all" }).warnings.join()).toMatch(/sends no mail/)
  })

  it("splits long records into 255-character strings and warns", () => {
    const mechanisms = Array.from({ length: 30 }, (_, i) => ({ type: "ip4", value: `198.51.100.${i}` }))
    const r = ok({ mechanisms, policy: "fail" })
    expect(r.lengthChecks.strings).toBe(Math.ceil(r.record.length / 255))
    expect(r.lengthChecks.strings).toBeGreaterThan(1)
    expect(r.dnsEntry.strings.every((s) => s.length <= 255)).toBe(true)
    expect(r.dnsEntry.strings.join("")).toBe(r.record)
    expect(r.warnings.join()).toMatch(/ strings of at most 255/)
  })

  it("warns past 10 direct lookups and about private addresses, ptr and duplicates", () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ type: "include", value: `s${i}.example.net` }))
    expect(ok({ mechanisms: many, policy: "fail" }).warnings.join()).toMatch(/over the limit of 10/)
    const w = ok({
      mechanisms: [{ type: "ip4", value: "10.1.2.3" }, { type: "ptr" }, { type: "ip4", value: "10.1.2.3" }],
      policy: "fail"
    }).warnings.join("\n")
    expect(w).toMatch(/private/)
    expect(w).toMatch(/deprecated/)
    expect(w).toMatch(/duplicate/)
  })

  it.each([
    [{ mechanisms: [{ type: "ip4", value: "300.1.1.1" }], policy: "fail" }, /not an IPv4/],
    [{ mechanisms: [{ type: "ip4", value: "192.0.2.0/33" }], policy: "fail" }, /not an IPv4/],
    [{ mechanisms: [{ type: "ip6", value: "2001:db8::g" }], policy: "fail" }, /not an IPv6/],
    [{ mechanisms: [{ type: "foo", value: "x" }], policy: "fail" }, /unknown mechanism type 'foo'/],
    [{ mechanisms: [{ type: "all" }], policy: "fail" }, /unknown mechanism type 'all'/],
    [{ mechanisms: [{ type: "include", value: "" }], policy: "fail" }, /needs a domain/],
    [{ mechanisms: [{ type: "include", value: "nodot" }], policy: "fail" }, /not a domain/],
    [{ mechanisms: [{ type: "include", value: "a b.com" }], policy: "fail" }, /whitespace/],
    [{ mechanisms: [{ type: "a", value: "x.com/40" }], policy: "fail" }, /prefix length/],
    [{ mechanisms: [], policy: "reject" }, /unknown policy/],
    [{ mechanisms: "ip4", policy: "fail" }, /array/],
    [{ mechanisms: [{ value: "x" }], policy: "fail" }, /type/]
  ])("rejects %j", (input, reason) => {
    expect(err(input).message).toMatch(reason)
  })
})

// --- round trip ------------------------------------------------------------------------------------

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/)
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,5}$/))
  .map(([ls, t]) => [...ls, t].join("."))
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined })
const mechanism = fc.oneof(
  fc
    .tuple(fc.ipV4(), opt(fc.integer({ min: 8, max: 32 })))
    .map(([ip, p]) => ({ type: "ip4", value: p === undefined ? ip : `${ip}/${p}` })),
  fc
    .tuple(fc.ipV6(), opt(fc.integer({ min: 16, max: 128 })))
    .map(([ip, p]) => ({ type: "ip6", value: p === undefined ? ip : `${ip}/${p}` })),
  domain.map((d) => ({ type: "include", value: d })),
  domain.map((d) => ({ type: "exists", value: d })),
  fc
    .tuple(
      fc.constantFrom("a", "mx"),
      opt(domain),
      opt(fc.integer({ min: 0, max: 32 })),
      opt(fc.integer({ min: 0, max: 128 }))
    )
    .map(([type, d, c4, c6]) => ({
      type,
      value: `${d ?? ""}${c4 === undefined ? "" : `/${c4}`}${c6 === undefined ? "" : `//${c6}`}`
    }))
)
const config = fc.record({
  mechanisms: fc.array(mechanism, { maxLength: 12 }),
  useA: fc.boolean(),
  useMx: fc.boolean(),
  policy: fc.constantFrom("fail", "softfail", "neutral", "pass")
})

/** The configuration a record says: its mechanisms as {type, value}, a / mx without arguments, policy. */
const configOf = (record: string) => {
  const terms = parse(record).terms.map((t) => t.term)
  const mechs = terms.filter((t) => t.kind === "mechanism")
  const all = mechs.find((m) => m.name === "all")!
  const rest = mechs.filter((m) => m.name !== "all")
  const bare = (name: string) =>
    rest.some(
      (m) => m.name === name && m.domain === undefined && m.cidr4 === undefined && m.cidr6 === undefined
    )
  const policy = { "-": "fail", "~": "softfail", "?": "neutral", "+": "pass" }[all.qualifier ?? "+"]
  return {
    useA: bare("a"),
    useMx: bare("mx"),
    policy,
    mechanisms: rest
      .map((m) => {
        const value =
          m.name === "ip4" || m.name === "ip6"
            ? `${m.ip}${(m.cidr4 ?? m.cidr6) === undefined ? "" : `/${m.cidr4 ?? m.cidr6}`}`
            : `${m.domain ?? ""}${m.cidr4 === undefined ? "" : `/${m.cidr4}`}${m.cidr6 === undefined ? "" : `//${m.cidr6}`}`
        return { type: m.name, value }
      })
      .filter((m) => !((m.type === "a" || m.type === "mx") && m.value === ""))
  }
}

const key = (m: { type: string; value: string }) => `${m.type}:${m.value}`
const normal = (c: {
  mechanisms: ReadonlyArray<{ type: string; value: string }>
  useA: boolean
  useMx: boolean
  policy: string
}) => ({
  useA: c.useA || c.mechanisms.some((m) => m.type === "a" && m.value === ""),
  useMx: c.useMx || c.mechanisms.some((m) => m.type === "mx" && m.value === ""),
  policy: c.policy,
  mechanisms: [...new Set(c.mechanisms.filter((m) => m.value !== "").map(key))].sort()
})

describe("generate/Spf round trip", () => {
  it("every generated record parses back, without errors, to the configuration that produced it", () => {
    fc.assert(
      fc.property(config, (c) => {
        const r = ok(c)
        const parsed = parse(r.record)
        expect(parsed.errors).toEqual([])
        const back = configOf(r.record)
        expect(normal({ ...back, mechanisms: back.mechanisms })).toEqual(normal(c))
      }),
      { numRuns: runs(1000) }
    )
  })

  it("never throws on arbitrary input objects", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const r = generate(input as SpfGenerateInput)
        expect(Either.isLeft(r) || Either.isRight(r)).toBe(true)
      })
    )
  })
})
