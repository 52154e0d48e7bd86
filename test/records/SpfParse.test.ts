import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { parse, print, selectSpf, type Mechanism, type Term } from "../../src/records/SpfParse.ts"
import { runs } from "../support/runs.ts"

const strip = (record: string) => parse(record).terms.map((t) => t.term)

describe("SpfParse: RFC 7208 Appendix A records", () => {
  const valid = [
    "v=spf1 +all",
    "v=spf1 a -all",
    "v=spf1 a:example.org -all",
    "v=spf1 mx -all",
    "v=spf1 mx:example.org -all",
    "v=spf1 mx mx:example.org -all",
    "v=spf1 mx/30 mx:example.org/30 -all",
    "v=spf1 ptr -all",
    "v=spf1 ip4:192.0.2.128/28 -all",
    "v=spf1 include:example.com include:example.net -all",
    "v=spf1 redirect=example.org",
    "v=spf1 mx include:mobile-users._spf.%{d} include:remote-users._spf.%{d} -all",
    "v=spf1 exists:%{l1r+}.%{d}",
    "v=spf1 exists:%{ir}.%{l1r+}.%{d}",
    "v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all",
    "v=spf1 -ip4:192.0.2.0/24 +all",
    "v=spf1 -ptr +all",
    // section 7.4 macro examples as targets
    "v=spf1 exists:%{ir}.%{v}._spf.%{d2} -all",
    "v=spf1 exists:%{lr-}.lp._spf.%{d2} -all",
    "v=spf1 exists:%{lr-}.lp.%{ir}.%{v}._spf.%{d2} -all",
    "v=spf1 exists:%{ir}.%{v}.%{l1r-}.lp._spf.%{d2} -all",
    "v=spf1 exists:%{d2}.trusted-domains.example.net -all",
    "v=spf1 -all exp=explain._spf.%{d}",
    "V=SPF1 IP6:2001:DB8::/32 A//64 MX:example.com/24//48 ~ALL",
    "v=spf1 ip6:::ffff:192.0.2.1 ip6:1:2:3:4:5:6:7:8/128 ?all",
    "v=spf1   a    -all   "
  ]
  it.each(valid)("%s parses without errors", (record) => {
    const parsed = parse(record)
    expect(parsed.errors).toEqual([])
  })

  it("reads qualifiers, names, domains and CIDR lengths", () => {
    const [a, mx, ip6, all] = strip(
      "v=spf1 a/24 -mx:example.org/30//64 ~ip6:2001:db8::/32 ?all"
    ) as Array<Mechanism>
    expect(a).toMatchObject({ name: "a", qualifier: undefined, cidr4: 24, cidr6: undefined })
    expect(mx).toMatchObject({ name: "mx", qualifier: "-", domain: "example.org", cidr4: 30, cidr6: 64 })
    expect(ip6).toMatchObject({ name: "ip6", qualifier: "~", ip: "2001:db8::", cidr6: 32 })
    expect(all).toMatchObject({ name: "all", qualifier: "?" })
  })

  it("reads modifiers, unknown ones with a warning", () => {
    const parsed = parse("v=spf1 redirect=_spf.example.com foo=bar")
    expect(parsed.terms.map((t) => t.term)).toEqual([
      { kind: "modifier", name: "redirect", value: "_spf.example.com" },
      { kind: "modifier", name: "foo", value: "bar" }
    ])
    expect(parsed.warnings.map((w) => w.message)).toEqual([expect.stringContaining("unknown modifier 'foo'")])
  })
})

describe("SpfParse: errors with positions", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["v=spf1 include:example", 15, /not a domain name/],
    ["v=spf1 ip4:192.0.2.300 -all", 11, /not a valid IPv4/],
    ["v=spf1 ip4:010.0.0.1", 11, /not a valid IPv4/],
    ["v=spf1 ip4:192.0.2.0/33", 20, /CIDR length/],
    ["v=spf1 ip6:2001:db8:::1", 11, /not a valid IPv6/],
    ["v=spf1 a -foo:bar", 10, /unknown mechanism 'foo'/],
    ["v=spf1 exists:%(ir).sbl.example.org", 14, /'%' must start a macro/],
    ["v=spf1 include:%{c}.example.com", 15, /only in the exp/],
    ["v=spf1 exists:%{x}.example.com", 14, /unknown macro letter/],
    ["v=spf1 exists:%{d0}.example.com", 14, /nonzero/],
    ["v=spf1 exists:%{d}.example.com/", 14, /not a domain name/],
    ["v=spf1 redirect=a.example redirect=b.example", 26, /only once/],
    ["v=spf1 all:foo", 10, /takes no argument/],
    ["v=spf1 include", 14, /needs ':domain'/],
    ["v=spf1 ptr/24", 10, /no CIDR/],
    ["v=spf1 a/08", 8, /CIDR length/],
    ["v=spf1 ip4:1.2.3.4\t-all", 18, /separated by spaces/],
    ["spf1 -all", 0, /v=spf1/],
    ["v=spf1 include:1.2.3.4", 15, /not a domain name/]
  ]
  it.each(cases)("%s -> error at %i", (record, position, message) => {
    const parsed = parse(record)
    expect(parsed.errors.length).toBeGreaterThan(0)
    expect(parsed.errors[0]).toMatchObject({ position, message: expect.stringMatching(message) })
  })

  it("warns about ptr, terms after all, redirect beside all and include= typos", () => {
    const msgs = parse("v=spf1 ptr -all mx redirect=x.example include=y.example").warnings.map(
      (w) => w.message
    )
    expect(msgs.join("\n")).toMatch(/SHOULD NOT/)
    expect(msgs.join("\n")).toMatch(/never evaluated/)
    expect(msgs.join("\n")).toMatch(/redirect' is ignored/)
    expect(msgs.join("\n")).toMatch(/did you mean 'include:'/)
  })
})

describe("selectSpf", () => {
  it("finds one, none or several records (RFC 7208 4.5)", () => {
    expect(selectSpf(["google-site-verification=x", "v=spf1 -all"])).toEqual({
      _tag: "one",
      record: "v=spf1 -all"
    })
    expect(selectSpf(["v=spf10 -all", "spf2.0/pra"])).toEqual({ _tag: "none" })
    expect(selectSpf(["v=spf1 -all", "V=SPF1 a"])._tag).toBe("multiple")
  })

  it("lists several records in one order, whatever order the RRset came in (RFC 2181 5)", () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^v=spf1( [a-z0-9:.~-]{1,12}){0,3}$/), {
          minLength: 2,
          maxLength: 5
        }),
        fc.uniqueArray(fc.string({ maxLength: 12 }), { maxLength: 3 }),
        (spf, other) => {
          const txts = [...spf, ...other.filter((t) => !/^v=spf1( |$)/i.test(t))]
          const reversed = selectSpf([...txts].reverse())
          expect(reversed).toEqual(selectSpf(txts))
          expect(reversed._tag === "multiple" && [...reversed.records].sort()).toEqual([...spf].sort())
        }
      ),
      { numRuns: runs(200) }
    ))
})

// --- property tests -------------------------------------------------------------------------------

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/)
const top = fc.stringMatching(/^[a-z]{2,6}$/)
const macro = fc.constantFrom("%{d}", "%{ir}", "%{l1r+}", "%{d2}", "%{i}", "%{s}", "%{o}", "%{h}", "%{v}")
const domain = fc.oneof(
  fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), top).map(([ls, t]) => [...ls, t].join(".")),
  fc.tuple(macro, fc.array(label, { maxLength: 2 }), top).map(([m, ls, t]) => [m, ...ls, t].join(".")),
  fc.tuple(label, macro).map(([l, m]) => `${l}.${m}`)
)
const qualifier = fc.constantFrom(undefined, "+", "-", "~", "?") as fc.Arbitrary<Mechanism["qualifier"]>
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined })
const ip4 = fc.ipV4()
const ip6 = fc.ipV6()

const mechanism: fc.Arbitrary<Term> = fc.oneof(
  fc.record({ q: qualifier, name: fc.constantFrom("all" as const) }).map(({ q, name }) => mech(name, q)),
  fc
    .record({ q: qualifier, name: fc.constantFrom("include" as const, "exists" as const), d: domain })
    .map(({ q, name, d }) => mech(name, q, { domain: d })),
  fc.record({ q: qualifier, d: opt(domain) }).map(({ q, d }) => mech("ptr", q, { domain: d })),
  fc
    .record({
      q: qualifier,
      name: fc.constantFrom("a" as const, "mx" as const),
      d: opt(domain),
      c4: opt(fc.integer({ min: 0, max: 32 })),
      c6: opt(fc.integer({ min: 0, max: 128 }))
    })
    .map(({ q, name, d, c4, c6 }) => mech(name, q, { domain: d, cidr4: c4, cidr6: c6 })),
  fc
    .record({ q: qualifier, ip: ip4, c: opt(fc.integer({ min: 0, max: 32 })) })
    .map(({ q, ip, c }) => mech("ip4", q, { ip, cidr4: c })),
  fc
    .record({ q: qualifier, ip: ip6, c: opt(fc.integer({ min: 0, max: 128 })) })
    .map(({ q, ip, c }) => mech("ip6", q, { ip, cidr6: c }))
)

function mech(
  name: Mechanism["name"],
  qualifier: Mechanism["qualifier"],
  rest: Partial<Mechanism> = {}
): Term {
  return {
    kind: "mechanism",
    name,
    qualifier,
    domain: rest.domain,
    ip: rest.ip,
    cidr4: rest.cidr4,
    cidr6: rest.cidr6
  }
}

const modifier: fc.Arbitrary<Term> = fc.oneof(
  domain.map((value): Term => ({ kind: "modifier", name: "redirect", value })),
  domain.map((value): Term => ({ kind: "modifier", name: "exp", value })),
  fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/), fc.stringMatching(/^[!-$&-~]{0,12}$/))
    .filter(
      ([n]) => !["redirect", "exp", "all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"].includes(n)
    )
    .map(([name, value]): Term => ({ kind: "modifier", name, value }))
)

const record = fc
  .tuple(
    fc.array(mechanism, { maxLength: 12 }),
    opt(modifier.filter((m) => m.kind === "modifier" && m.name === "redirect")),
    opt(modifier.filter((m) => m.kind === "modifier" && m.name !== "redirect"))
  )
  .map(([ms, r, other]) => [...ms, ...(r ? [r] : []), ...(other ? [other] : [])])

describe("SpfParse properties", () => {
  it("never throws on arbitrary strings, with or without the version prefix", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.boolean(), (s, prefixed) => {
        const parsed = parse(prefixed ? `v=spf1 ${s}` : s)
        expect(Array.isArray(parsed.errors)).toBe(true)
        for (const e of parsed.errors) expect(e.position).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: runs(2000) }
    )
  })

  it("never throws on strings built from SPF-ish pieces", () => {
    const piece = fc.constantFrom(
      "v=spf1",
      " ",
      "ip4:",
      "ip6:",
      "/",
      "//",
      ":",
      "%{",
      "}",
      "%",
      "a",
      "mx",
      "include",
      "=",
      "redirect",
      "1",
      "::",
      ".",
      "-",
      "~all"
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (ps) => {
        parse(ps.join(""))
      }),
      { numRuns: runs(2000) }
    )
  })

  it("round-trips: printed records parse back to the same terms, without errors", () => {
    fc.assert(
      fc.property(record, (terms) => {
        const text = print(terms)
        const parsed = parse(text)
        expect(parsed.errors).toEqual([])
        expect(parsed.terms.map((t) => t.term)).toEqual(terms)
        expect(print(parsed.terms.map((t) => t.term))).toBe(text)
      }),
      { numRuns: runs(1000) }
    )
  })
})
