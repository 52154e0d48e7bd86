import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { analyse } from "../../../src/checks/spf/Spf.ts"
import { gather, type SpfDns } from "../../../src/checks/spf/SpfGraph.ts"
import type { SpfNode } from "../../../src/checks/spf/SpfNode.ts"
import { fakeDns, type Zone } from "../spfFakeDns.ts"
import { runs } from "../../support/runs.ts"
import { domain as toDomain } from "../../support/domain.ts"

/** RFC 7208 Appendix A's zone. */
const appendixA: Zone = {
  "example.com A": ["192.0.2.10", "192.0.2.11"],
  "amy.example.com A": ["192.0.2.65"],
  "bob.example.com A": ["192.0.2.66"],
  "mail-a.example.com A": ["192.0.2.129"],
  "mail-b.example.com A": ["192.0.2.130"],
  "mail-c.example.org A": ["192.0.2.140"],
  "example.com MX": ["10 mail-a.example.com", "20 mail-b.example.com"],
  "example.org MX": ["10 mail-c.example.org"],
  "example.org TXT": ["v=spf1 include:example.com include:example.net -all"],
  "la.example.org TXT": ["v=spf1 redirect=example.org"],
  "example.net TXT": ["v=spf1 ip4:192.0.2.0/25 -all"],
  "mobile-users._spf.example.com TXT": ["v=spf1 exists:%{l1r+}.%{d}"],
  "remote-users._spf.example.com TXT": ["v=spf1 exists:%{ir}.%{l1r+}.%{d}"],
  "ip4._spf.example.com TXT": ["v=spf1 -ip4:192.0.2.0/24 +all"],
  "ptr._spf.example.com TXT": ["v=spf1 -ptr +all"]
}

const check = (dns: SpfDns, domain: string) =>
  Effect.map(gather(dns, toDomain(domain)), (fetch) => analyse(domain, fetch))
const run = (zone: Zone, domain = "example.com") => check(fakeDns(zone).dns, domain)
const withRecord = (record: string) => run({ ...appendixA, "example.com TXT": [record] })

describe("Spf: RFC 7208 Appendix A.1 simple examples", () => {
  const table: Array<[string, number, string, string]> = [
    ["v=spf1 +all", 0, "pass", "v=spf1 +all"],
    ["v=spf1 a -all", 1, "fail", "v=spf1 ip4:192.0.2.10/31 -all"],
    ["v=spf1 a:example.org -all", 1, "fail", "v=spf1 -all"],
    ["v=spf1 mx -all", 1, "fail", "v=spf1 ip4:192.0.2.129 ip4:192.0.2.130 -all"],
    ["v=spf1 mx:example.org -all", 1, "fail", "v=spf1 ip4:192.0.2.140 -all"],
    [
      "v=spf1 mx mx:example.org -all",
      2,
      "fail",
      "v=spf1 ip4:192.0.2.129 ip4:192.0.2.130 ip4:192.0.2.140 -all"
    ],
    ["v=spf1 mx/30 mx:example.org/30 -all", 2, "fail", "v=spf1 ip4:192.0.2.128/30 ip4:192.0.2.140/30 -all"],
    ["v=spf1 ptr -all", 1, "fail", "v=spf1 -all"],
    ["v=spf1 ip4:192.0.2.128/28 -all", 0, "fail", "v=spf1 ip4:192.0.2.128/28 -all"]
  ]
  for (const [record, lookups, policy, flat] of table)
    it.effect(record, () =>
      Effect.gen(function* () {
        const r = yield* withRecord(record)
        expect(r).toMatchObject({ exists: true, record, lookups, policy })
        expect(r.flattened.record).toBe(flat)
        expect(r.valid).toBe(true)
      })
    )

  it.effect("'+all' is flagged and fails; 'a:example.org' is a void lookup", () =>
    Effect.gen(function* () {
      const pass = yield* withRecord("v=spf1 +all")
      expect(pass.status).toBe("fail")
      expect(pass.findings.map((f) => f.id)).toContain("spf-pass-all")
      const voidA = yield* withRecord("v=spf1 a:example.org -all")
      expect(voidA.voidLookups).toBe(1)
      expect(voidA.lookupGraph.children[0]).toMatchObject({
        type: "a",
        domain: "example.org",
        status: "void"
      })
    })
  )
})

describe("Spf: Appendix A.2-A.4", () => {
  it.effect("multiple domains and redirect (A.2)", () =>
    Effect.gen(function* () {
      const la = yield* run(appendixA, "la.example.org")
      expect(la).toMatchObject({ policy: "fail", policySource: "example.org", redirect: "example.org" })
      // redirect (1) + include:example.com (1, no record: permerror) + include:example.net (1)
      expect(la.lookups).toBe(3)
      expect(la.valid).toBe(false)
      expect(la.findings.map((f) => f.id)).toContain("spf-include-broken")
      expect(la.lookupGraph.children[0]).toMatchObject({
        type: "redirect",
        domain: "example.org",
        totalLookups: 3
      })
    })
  )

  it.effect("DNSBL style with %{d} includes (A.3): includes followed, exists counted not evaluated", () =>
    Effect.gen(function* () {
      const r = yield* withRecord(
        "v=spf1 mx include:mobile-users._spf.%{d} include:remote-users._spf.%{d} -all"
      )
      expect(r.lookups).toBe(5)
      const [mx, mobile, remote] = r.lookupGraph.children
      expect(mx).toMatchObject({ type: "mx", hosts: ["mail-a.example.com", "mail-b.example.com"] })
      expect(mobile).toMatchObject({
        type: "include",
        domain: "mobile-users._spf.example.com",
        totalLookups: 2
      })
      expect(remote?.children[0]).toMatchObject({ type: "exists", status: "macro" })
      expect(r.flattened.record).toBe(
        "v=spf1 ip4:192.0.2.129 ip4:192.0.2.130 exists:%{l1r+}.mobile-users._spf.example.com exists:%{ir}.%{l1r+}.remote-users._spf.example.com -all"
      )
      expect(r.valid).toBe(true)
    })
  )

  it.effect("multiple requirements (A.4): negated includes are lost in flattening, +all flagged", () =>
    Effect.gen(function* () {
      const r = yield* withRecord("v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all")
      expect(r.lookups).toBe(3)
      expect(r.policy).toBe("pass")
      expect(r.flattened.warnings.join("\n")).toMatch(/-include:ip4._spf.%\{d\}.*non-pass qualifier/)
    })
  )
})

describe("Spf: limits, loops and failures", () => {
  const chain = (n: number): Zone => {
    const zone: Zone = { "t.com TXT": ["v=spf1 include:i1.t.com -all"] }
    for (let i = 1; i <= n; i++)
      zone[`i${i}.t.com TXT`] = [i < n ? `v=spf1 a include:i${i + 1}.t.com` : "v=spf1 ip4:192.0.2.1"]
    for (let i = 1; i <= n; i++) zone[`i${i}.t.com A`] = [`198.51.100.${i}`]
    return zone
  }

  it.effect("counts nested lookups past the limit and still returns the record", () =>
    Effect.gen(function* () {
      const r = yield* run(chain(6), "t.com")
      // 6 includes + 5 a terms
      expect(r.lookups).toBe(11)
      expect(r.valid).toBe(false)
      expect(r.record).toBe("v=spf1 include:i1.t.com -all")
      expect(r.findings[0]?.id).toBe("spf-too-many-lookups")
      expect(r.flattened).toMatchObject({ needed: true, complete: true, lookups: 0 })
      expect(r.flattened.ip4).toBeGreaterThan(0)
    })
  )

  it.effect("void lookups over 2 are a permerror, counted separately", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "v.com TXT": ["v=spf1 a:x1.v.com mx:x2.v.com exists:x3.v.com ip4:192.0.2.1 -all"] },
        "v.com"
      )
      expect(r).toMatchObject({ lookups: 3, voidLookups: 3, valid: false })
      expect(r.findings.map((f) => f.id)).toContain("spf-too-many-void-lookups")
    })
  )

  it.effect("loops are reported and not followed", () =>
    Effect.gen(function* () {
      const { dns, asked } = fakeDns({
        "l.net TXT": ["v=spf1 include:b.l.net -all"],
        "b.l.net TXT": ["v=spf1 include:l.net"]
      })
      const r = yield* check(dns, "l.net")
      expect(r.findings.map((f) => f.id)).toContain("spf-loop")
      expect(r.lookupGraph.children[0]?.children[0]).toMatchObject({ status: "loop", domain: "l.net" })
      expect(asked.filter((q) => q === "l.net TXT")).toHaveLength(1)
      expect(r.valid).toBe(false)
    })
  )

  it.effect("two records are an error", () =>
    Effect.gen(function* () {
      const r = yield* run({ "m.org TXT": ["v=spf1 -all", "v=spf1 mx ~all"] }, "m.org")
      expect(r).toMatchObject({
        exists: true,
        valid: false,
        status: "fail",
        records: ["v=spf1 -all", "v=spf1 mx ~all"]
      })
      expect(r.issues.join()).toMatch(/2 SPF records/)
    })
  )

  it.effect("a SERVFAIL is unknown, never missing", () =>
    Effect.gen(function* () {
      const root = yield* run({ "u.com TXT": "SERVFAIL" }, "u.com")
      expect(root).toMatchObject({ status: "unknown", policy: "unknown", exists: false })
      expect(root.findings.map((f) => f.id)).toEqual(["spf-unknown"])
      const nested = yield* run(
        { "u.com TXT": ["v=spf1 include:p.u.com -all"], "p.u.com TXT": "SERVFAIL" },
        "u.com"
      )
      expect(nested.lookupGraph.children[0]).toMatchObject({ status: "unknown" })
      // A failed lookup inside include is a temperror (RFC 7208 2.6.6): unknown, never a warning.
      expect(nested.status).toBe("unknown")
      expect(nested.findings.map((f) => f.id)).toContain("spf-dns-unknown")
      expect(nested.findings.map((f) => f.id)).not.toContain("spf-include-broken")
      expect(nested.flattened.complete).toBe(false)
      for (const [term, key] of [
        ["a:h.u.com", "h.u.com A"],
        ["mx:m.u.com", "m.u.com MX"],
        ["exists:e.u.com", "e.u.com A"]
      ] as const) {
        const r = yield* run({ "u.com TXT": [`v=spf1 ${term} -all`], [key]: "SERVFAIL" }, "u.com")
        expect(r.status, term).toBe("unknown")
      }
    })
  )

  it.effect("redirect: followed without 'all', ignored beside one, loops and unknown targets reported", () =>
    Effect.gen(function* () {
      const la = yield* run(appendixA, "la.example.org")
      expect(la.flattened).toMatchObject({ record: "v=spf1 ip4:192.0.2.0/25 -all", complete: false })
      const ignored = yield* run(
        { "r.com TXT": ["v=spf1 redirect=x.r.com -all"], "x.r.com TXT": ["v=spf1 +all"] },
        "r.com"
      )
      expect(ignored).toMatchObject({ policy: "fail", lookups: 0 })
      expect(ignored.warnings.join()).toMatch(/redirect' is ignored/)
      const loop = yield* run(
        { "r.com TXT": ["v=spf1 redirect=x.r.com"], "x.r.com TXT": ["v=spf1 redirect=r.com"] },
        "r.com"
      )
      expect(loop.findings.map((f) => f.id)).toContain("spf-loop")
      expect(loop.policy).toBe("unknown")
      const unknown = yield* run(
        { "r.com TXT": ["v=spf1 redirect=x.r.com"], "x.r.com TXT": "SERVFAIL" },
        "r.com"
      )
      expect(unknown).toMatchObject({ policy: "unknown", valid: true, status: "unknown" })
    })
  )

  it.effect("deep include chains stop at the depth bound and say the count is a minimum", () =>
    Effect.gen(function* () {
      const zone: Zone = {}
      for (let i = 0; i < 20; i++) zone[`d${i}.test TXT`] = [`v=spf1 include:d${i + 1}.test`]
      const r = yield* run(zone, "d0.test")
      expect(r.findings.map((f) => f.id)).toEqual(
        expect.arrayContaining(["spf-too-many-lookups", "spf-graph-truncated"])
      )
      expect(r.lookups).toBeGreaterThan(10)
    })
  )

  it.effect("an included '+all' is flagged even when the root ends in -all", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "i.com TXT": ["v=spf1 include:p.i.com -all"], "p.i.com TXT": ["v=spf1 +all"] },
        "i.com"
      )
      expect(r).toMatchObject({ policy: "fail", status: "fail" })
      expect(r.findings.map((f) => f.id)).toContain("spf-include-pass-all")
      expect(r.flattened.warnings.join()).toMatch(/\+all \(in p\.i\.com\)/)
    })
  )

  it.effect("no record is missing", () =>
    Effect.gen(function* () {
      const r = yield* run({ "n.com TXT": ["google-site-verification=abc"] }, "n.com")
      expect(r).toMatchObject({ status: "missing", exists: false, record: "", policy: "none", valid: false })
    })
  )

  it.effect("softfail and neutral policies; no all defaults to neutral", () =>
    Effect.gen(function* () {
      expect((yield* run({ "s.com TXT": ["v=spf1 ip4:192.0.2.1 ~all"] }, "s.com")).policy).toBe("softfail")
      const q = yield* run({ "s.com TXT": ["v=spf1 ip4:192.0.2.1 ?all"] }, "s.com")
      expect(q.policy).toBe("neutral")
      expect(q.findings.map((f) => f.id)).toContain("spf-neutral-all")
      const none = yield* run({ "s.com TXT": ["v=spf1 ip4:192.0.2.1"] }, "s.com")
      expect(none.policy).toBe("neutral")
      expect(none.findings.map((f) => f.id)).toContain("spf-no-all")
    })
  )

  it.effect("flattening splits into 255-character records and warns about providers", () =>
    Effect.gen(function* () {
      const ips = Array.from({ length: 40 }, (_, i) => `ip4:203.0.${i * 2}.1`).join(" ")
      const r = yield* run(
        {
          "f.com TXT": ["v=spf1 include:_spf.google.com -all"],
          "_spf.google.com TXT": [`v=spf1 ${ips} ~all`]
        },
        "f.com"
      )
      const recs = r.flattened.records
      expect(recs.length).toBeGreaterThan(2)
      expect(recs[0]?.value).toMatch(/^v=spf1 include:_spf1\.f\.com include:_spf2\.f\.com.* -all$/)
      for (const rec of recs) {
        expect(rec.length).toBeLessThanOrEqual(255)
        expect(rec.answerBytes).toBeLessThanOrEqual(512)
      }
      expect(r.flattened.ip4).toBe(40)
      expect(r.flattened.warnings.join("\n")).toMatch(/Google Workspace/)
    })
  )
})

describe("Spf properties", () => {
  const domains = ["a.t", "b.t", "c.t", "d.t", "e.t"].map((d) => `${d}est`)
  const body = fc.array(
    fc.oneof(
      fc.constantFrom(...domains).map((d) => `include:${d}`),
      fc.constantFrom("a", "mx", "ip4:192.0.2.1", "a:x.test", "exists:y.test", "ptr"),
      fc.constantFrom(...domains).map((d) => `redirect=${d}`)
    ),
    { maxLength: 5 }
  )
  const zoneArb = fc.tuple(...domains.map(() => body)).map((bodies) => {
    const zone: Zone = {}
    domains.forEach((d, i) => (zone[`${d} TXT`] = [["v=spf1", ...bodies[i]!].join(" ")]))
    return zone
  })

  it("adding an include never lowers the lookup count", async () => {
    await fc.assert(
      fc.asyncProperty(
        zoneArb,
        fc.constantFrom(...domains),
        fc.constantFrom(...domains),
        async (zone, at, target) => {
          const before = await Effect.runPromise(run(zone, domains[0]))
          const record = (zone[`${at} TXT`] as ReadonlyArray<string>)[0]!
          const more = { ...zone, [`${at} TXT`]: [record.replace("v=spf1", `v=spf1 include:${target}`)] }
          const after = await Effect.runPromise(run(more, domains[0]))
          expect(after.lookups).toBeGreaterThanOrEqual(before.lookups)
        }
      ),
      { numRuns: runs(200) }
    )
  })

  it("analyse is total on garbage records too", async () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 80 }).map((t) => `v=spf1 ${t}`),
      fc
        .array(
          fc.constantFrom(
            "include:a.test",
            "redirect=b.test",
            "a:%{i}.x.test",
            "mx//200",
            "ip4:1.2.3.4/40",
            "?all",
            "exists:%{",
            "ptr:"
          ),
          { maxLength: 6 }
        )
        .map((ts) => ["v=spf1", ...ts].join(" "))
    )
    await fc.assert(
      fc.asyncProperty(junk, junk, async (root, other) => {
        const zone: Zone = { "a.test TXT": [root], "b.test TXT": [other] }
        const r = await Effect.runPromise(run(zone, "a.test"))
        expect(typeof r.valid).toBe("boolean")
        expect(r.lookups).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: runs(300) }
    )
  })

  it("analyse is total: never throws, counts stay consistent", async () => {
    await fc.assert(
      fc.asyncProperty(zoneArb, async (zone) => {
        const fetch = await Effect.runPromise(gather(fakeDns(zone).dns, toDomain(domains[0]!)))
        const r = analyse(domains[0]!, fetch)
        const sum = (n: SpfNode): number => n.lookups + n.children.reduce((s, c) => s + sum(c), 0)
        expect(sum(r.lookupGraph)).toBe(r.lookups)
        expect(r.valid && r.lookups > 10).toBe(false)
      }),
      { numRuns: runs(200) }
    )
  })
})
