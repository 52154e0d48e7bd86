/**
 * DMARC against the world's scenarios (scripts/world/scenarios.json): the real Resolver asks the
 * world's validating resolver, and each test asserts what the scenario stages.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Dmarc } from "../../src/checks/dmarc/Dmarc.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const dmarc = (domain: string) => runCheck(Dmarc, toDomain(domain))
const ids = (r: { findings: ReadonlyArray<{ id: string }> }) => r.findings.map((f) => f.id)

layer(ScanWorld, { timeout: 60_000 })("DMARC in the world", (it) => {
  it.effect("perfect.com: p=reject with rua passes", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("perfect.com")
      expect(r).toMatchObject({
        status: "pass",
        exists: true,
        valid: true,
        policy: "reject",
        subdomainPolicy: "reject",
        pct: 100,
        percentage: 100,
        reportingEnabled: true,
        rua: ["mailto:dmarc@perfect.com"],
        adkim: "strict",
        aspf: "strict",
        issues: []
      })
      // pct=100 is a DMARCbis note, not a downgrade
      expect(ids(r)).toContain("dmarc-removed-pct")
    })
  )

  it.effect("dmarc-none.com: p=none without rua warns for both", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("dmarc-none.com")
      expect(r).toMatchObject({
        status: "warning",
        exists: true,
        valid: true,
        policy: "none",
        reportingEnabled: false,
        rua: []
      })
      expect(ids(r)).toEqual(expect.arrayContaining(["dmarc-p-none", "dmarc-no-rua"]))
    })
  )

  it.effect("dmarc-invalid.net: each syntax error with its position", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("dmarc-invalid.net")
      const record = "v=DMARC1; p=rejected; pct=150; rua=dmarc@dmarc-invalid.net; foo=bar"
      expect(r).toMatchObject({ status: "fail", exists: true, valid: false, record })
      expect(r.errors.map((e) => [e.tag, e.position])).toEqual([
        ["p", record.indexOf("rejected")],
        ["rua", record.indexOf("dmarc@")]
      ])
      // pct is removed by DMARCbis: its bad value warns instead of invalidating.
      expect(ids(r)).toEqual(expect.arrayContaining(["dmarc-unknown-tag", "dmarc-removed-pct"]))
      expect(r.issues.length).toBe(2)
    })
  )

  it.effect("dmarc-external-rua.org: the unauthorised external destination is reported", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("dmarc-external-rua.org")
      expect(r).toMatchObject({
        exists: true,
        valid: true,
        policy: "reject",
        status: "fail",
        reportingEnabled: false
      })
      expect(r.reportDestinations).toEqual([
        {
          kind: "rua",
          uri: "mailto:reports@dmarc-collector.net",
          domain: "dmarc-collector.net",
          external: true,
          authorised: false,
          verificationName: "dmarc-external-rua.org._report._dmarc.dmarc-collector.net",
          maxBytes: null
        }
      ])
      expect(ids(r)).toContain("dmarc-external-unauthorised")
    })
  )

  it.effect("sub.dmarc-org.com: no record, inherits the organisational domain's (sp=reject applies)", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("sub.dmarc-org.com")
      expect(r).toMatchObject({
        exists: true,
        inherited: true,
        source: "_dmarc.dmarc-org.com",
        organisationalDomain: "dmarc-org.com",
        policy: "quarantine",
        subdomainPolicy: "reject",
        effectivePolicy: "reject",
        // dmarc-org.com has neither MX nor address: its aggregate reports cannot arrive.
        status: "warning"
      })
      expect(ids(r)).toContain("dmarc-rua-no-mx")
    })
  )

  it.effect("nomail.org: DMARC reject; nomx.net: no record is missing", () =>
    Effect.gen(function* () {
      expect(yield* dmarc("nomail.org")).toMatchObject({ exists: true, policy: "reject", valid: true })
      expect(yield* dmarc("nomx.net")).toMatchObject({ exists: false, status: "missing", valid: false })
    })
  )

  // NEEDS A WORLD RESTART: dmarc-space.com is a scenario added to scripts/world/scenarios.json.
  it.effect("dmarc-space.com (needs world restart): a record with a leading space is not DMARC", () =>
    Effect.gen(function* () {
      const r = yield* dmarc("dmarc-space.com")
      expect(r).toMatchObject({ exists: false, status: "missing", valid: false })
      expect(ids(r)).toContain("dmarc-leading-space")
    })
  )
})
