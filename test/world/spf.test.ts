/**
 * SPF against the world's scenarios (scripts/world/scenarios.json): the real Resolver asks the
 * world's validating resolver, and each test asserts what the scenario stages.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Facts } from "../../src/kernel/Facts.ts"
import { MailServers } from "../../src/kernel/MailServers.ts"
import { Spf } from "../../src/checks/spf/Spf.ts"
import { runCheck, withFacts } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const spf = (domain: string) => runCheck(Spf, toDomain(domain))

layer(ScanWorld, { timeout: 60_000 })("SPF in the world", (it) => {
  it.effect(
    "spf-toomany.com: 12 lookups through nested includes, over the limit, record still returned",
    () =>
      Effect.gen(function* () {
        const r = yield* spf("spf-toomany.com")
        expect(r).toMatchObject({ exists: true, valid: false, lookups: 12, policy: "fail", status: "fail" })
        expect(r.record).toMatch(/^v=spf1 include:a\._spf\.spf-toomany\.com/)
        expect(r.includes).toEqual([
          "a._spf.spf-toomany.com",
          "b._spf.spf-toomany.com",
          "c._spf.spf-toomany.com"
        ])
        expect(r.findings.map((f) => f.id)).toContain("spf-too-many-lookups")
        expect(r.lookupGraph.children.map((c) => c.totalLookups)).toEqual([4, 4, 4])
        expect(r.flattened.needed).toBe(true)
      })
  )

  it.effect("spf-void.com: 3 void lookups, reported separately from the lookup count", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-void.com")
      expect(r).toMatchObject({ lookups: 3, voidLookups: 3, valid: false })
      expect(r.findings.map((f) => f.id)).toContain("spf-too-many-void-lookups")
      expect(r.lookupGraph.children.map((c) => c.status)).toEqual(["void", "void", "void"])
    })
  )

  it.effect("spf-loop.net: the include loop is reported and not followed", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-loop.net")
      expect(r.valid).toBe(false)
      expect(r.findings.map((f) => f.id)).toContain("spf-loop")
      const loop1 = r.lookupGraph.children[0]!
      const loop2 = loop1.children[0]!
      expect(loop2.children[0]).toMatchObject({ type: "include", domain: "spf-loop.net", status: "loop" })
      expect(r.lookups).toBe(3)
    })
  )

  it.effect("spf-multiple.org: two records are a permerror", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-multiple.org")
      expect(r).toMatchObject({ exists: true, valid: false, status: "fail" })
      expect(r.records).toHaveLength(2)
      expect(r.findings.map((f) => f.id)).toContain("spf-multiple")
    })
  )

  it.effect("spf-softfail.com: ~all is softfail, a warning and not an issue", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-softfail.com")
      expect(r).toMatchObject({ exists: true, valid: true, policy: "softfail", lookups: 0, status: "pass" })
      expect(r.warnings.join()).toMatch(/~all/)
      expect(r.issues).toEqual([])
    })
  )

  it.effect("spf-passall.com: +all is flagged", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-passall.com")
      expect(r).toMatchObject({ policy: "pass", status: "fail" })
      expect(r.findings.map((f) => f.id)).toContain("spf-pass-all")
    })
  )

  it.effect("spf-flatten.com: nested ip4/ip6 ranges flatten into one merged record", () =>
    Effect.gen(function* () {
      const r = yield* spf("spf-flatten.com")
      expect(r).toMatchObject({ valid: true, lookups: 6, policy: "fail" })
      expect(r.flattened).toMatchObject({
        complete: true,
        lookups: 0,
        record:
          "v=spf1 ip4:192.0.2.0/24 ip4:198.51.100.0/24 ip4:203.0.113.0/24 ip6:2001:db8:1::/48 ip6:2001:db8:2::/48 ip6:2001:db8:10::/48 -all"
      })
    })
  )

  it.effect("perfect.com: mx + ip4 with -all, valid, 1 lookup, the MX address resolved", () =>
    Effect.gen(function* () {
      const r = yield* spf("perfect.com")
      expect(r).toMatchObject({
        exists: true,
        valid: true,
        policy: "fail",
        lookups: 1,
        voidLookups: 0,
        status: "pass"
      })
      const mx = r.lookupGraph.children[0]!
      expect(mx).toMatchObject({ type: "mx", hosts: ["mx.perfect.com"], status: "ok" })
      expect(mx.networks?.length).toBeGreaterThan(0)
      expect(r.issues).toEqual([])
    })
  )

  it.effect("nomail.org: v=spf1 -all with a null MX", () =>
    Effect.gen(function* () {
      const r = yield* spf("nomail.org")
      expect(r).toMatchObject({
        exists: true,
        valid: true,
        policy: "fail",
        lookups: 0,
        record: "v=spf1 -all"
      })
      const servers = yield* withFacts(
        toDomain("nomail.org"),
        Effect.flatMap(Facts, (facts) => facts.get(MailServers))
      )
      expect(servers.mxStatus).toBe("null-mx")
    })
  )
})
