import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import { analyseDmarc, checkDmarc, Dmarc, DmarcResult } from "../../../src/checks/dmarc/Dmarc.ts"
import type { DmarcGathered } from "../../../src/checks/dmarc/DmarcGather.ts"
import { runFake } from "../facts.ts"
import { fakeTxt } from "../fakeTxt.ts"
import { domain as toDomain } from "../../support/domain.ts"

const run = (zone: Parameters<typeof fakeTxt>[0], domain: string) =>
  checkDmarc(fakeTxt(zone).source, toDomain(domain))

describe("DMARC check", () => {
  it.effect("p=reject with rua passes", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "_dmarc.example.com": ["v=DMARC1; p=reject; rua=mailto:d@example.com"] },
        "example.com"
      )
      expect(r).toMatchObject({
        exists: true,
        valid: true,
        status: "pass",
        policy: "reject",
        subdomainPolicy: "reject",
        pct: 100,
        percentage: 100,
        reportingEnabled: true,
        rua: ["mailto:d@example.com"],
        ruf: [],
        inherited: false,
        source: "_dmarc.example.com"
      })
      expect(r.issues).toEqual([])
    })
  )

  it.effect("p=none without rua warns twice", () =>
    Effect.gen(function* () {
      const r = yield* run({ "_dmarc.example.com": ["v=DMARC1; p=none"] }, "example.com")
      expect(r.status).toBe("warning")
      expect(r.reportingEnabled).toBe(false)
      expect(r.findings.map((f) => f.id)).toEqual(expect.arrayContaining(["dmarc-p-none", "dmarc-no-rua"]))
      expect(r.warnings.length).toBeGreaterThanOrEqual(2)
    })
  )

  it.effect("a record without p is valid and read as p=none (RFC 9989 4.7), with a warning", () =>
    Effect.gen(function* () {
      for (const record of ["v=DMARC1; rua=mailto:d@example.com", "v=DMARC1"]) {
        const r = yield* run({ "_dmarc.example.com": [record] }, "example.com")
        expect(r).toMatchObject({ exists: true, valid: true, status: "warning", policy: "none" })
        expect(r.findings.map((f) => f.id)).toEqual(expect.arrayContaining(["dmarc-no-p", "dmarc-p-none"]))
        expect(r.findings.map((f) => f.id)).not.toContain("dmarc-syntax")
      }
    })
  )

  it.effect("an invalid p is an error; with a usable rua it is read as p=none (RFC 9989 4.10.1)", () =>
    Effect.gen(function* () {
      const withRua = yield* run(
        { "_dmarc.example.com": ["v=DMARC1; p=garbage; rua=mailto:d@example.com"] },
        "example.com"
      )
      expect(withRua).toMatchObject({ valid: false, status: "fail", policy: "none" })
      const without = yield* run({ "_dmarc.example.com": ["v=DMARC1; p=garbage"] }, "example.com")
      expect(without).toMatchObject({ valid: false, status: "fail" })
      expect(without.policy).toBeUndefined()
    })
  )

  it.effect("pct < 100 and removed DMARCbis tags warn", () =>
    Effect.gen(function* () {
      const r = yield* run(
        {
          "_dmarc.example.com": [
            "v=DMARC1; p=quarantine; pct=25; rf=afrf; ri=86400; rua=mailto:d@example.com"
          ]
        },
        "example.com"
      )
      expect(r.pct).toBe(25)
      expect(r.findings.map((f) => f.id)).toEqual(
        expect.arrayContaining(["dmarc-pct", "dmarc-removed-pct", "dmarc-removed-rf", "dmarc-removed-ri"])
      )
    })
  )

  it.effect("a subdomain without a record inherits the organisational domain's sp", () =>
    Effect.gen(function* () {
      const { source, asked } = fakeTxt({
        "_dmarc.dmarc-org.com": ["v=DMARC1; p=reject; sp=quarantine; rua=mailto:d@dmarc-org.com"]
      })
      const r = yield* checkDmarc(source, toDomain("Sub.Dmarc-Org.com."))
      expect(asked).toEqual(["_dmarc.sub.dmarc-org.com", "_dmarc.dmarc-org.com"])
      expect(r).toMatchObject({
        domain: "sub.dmarc-org.com",
        exists: true,
        inherited: true,
        source: "_dmarc.dmarc-org.com",
        organisationalDomain: "dmarc-org.com",
        policy: "reject",
        effectivePolicy: "quarantine"
      })
    })
  )

  it.effect("no fallback when the subdomain lookup failed: unknown, not missing", () =>
    Effect.gen(function* () {
      const { source, asked } = fakeTxt({
        "_dmarc.sub.example.com": "servfail",
        "_dmarc.example.com": ["v=DMARC1; p=reject"]
      })
      const r = yield* checkDmarc(source, toDomain("sub.example.com"))
      expect(asked).toEqual(["_dmarc.sub.example.com"])
      expect(r.status).toBe("unknown")
      expect(r.issues[0]).toContain("could not be determined")
    })
  )

  it.effect("no record anywhere is missing", () =>
    Effect.gen(function* () {
      const r = yield* run({ "_dmarc.example.com": ["some other txt"] }, "example.com")
      expect(r).toMatchObject({
        exists: false,
        valid: false,
        status: "missing",
        rua: [],
        reportingEnabled: false
      })
    })
  )

  it.effect("two records: receivers ignore both", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "_dmarc.example.com": ["v=DMARC1; p=none", "v=DMARC1; p=reject"] },
        "example.com"
      )
      expect(r).toMatchObject({ exists: true, valid: false, status: "fail" })
      expect(r.findings[0]?.id).toBe("dmarc-multiple")
    })
  )

  it.effect("syntax errors make the record invalid and carry positions", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "_dmarc.dmarc-invalid.net": ["v=DMARC1; p=rejectt; pct=abc"] },
        "dmarc-invalid.net"
      )
      expect(r).toMatchObject({ exists: true, valid: false, status: "fail" })
      expect(r.errors.map((e) => e.position)).toEqual([12])
      expect(r.issues[0]).toContain("position 12")
      // pct is removed by DMARCbis: a malformed value is a warning, never what makes it invalid.
      expect(r.findings.find((f) => f.id === "dmarc-removed-pct")?.severity).toBe("warning")
    })
  )

  it.effect("removed tags are judged one way: malformed or behaviour-changing warn, never invalidate", () =>
    Effect.gen(function* () {
      for (const tag of ["pct=150", "rf=%%", "ri=abc", "pct=50", "rf=iodef", "ri=3600"]) {
        const r = yield* run(
          { "_dmarc.example.com": [`v=DMARC1; p=reject; rua=mailto:d@example.com; ${tag}`] },
          "example.com"
        )
        expect(r.valid, tag).toBe(true)
        const name = tag.split("=")[0]
        expect(r.findings.find((f) => f.id === `dmarc-removed-${name}`)?.severity, tag).toBe("warning")
      }
    })
  )

  it.effect("a record with a leading space is not a DMARC record, and says so (RFC 7489 6.6.3)", () =>
    Effect.gen(function* () {
      const r = yield* run({ "_dmarc.example.com": [" v=DMARC1; p=reject"] }, "example.com")
      expect(r).toMatchObject({ exists: false, status: "missing" })
      expect(r.findings.map((f) => f.id)).toContain("dmarc-leading-space")
    })
  )

  it.effect("an SPF record at _dmarc and more than two rua URIs warn", () =>
    Effect.gen(function* () {
      const r = yield* run(
        {
          "_dmarc.example.com": [
            "v=spf1 -all",
            "v=DMARC1; p=reject; rua=mailto:a@example.com,mailto:b@example.com,mailto:c@example.com"
          ]
        },
        "example.com"
      )
      expect(r.findings.map((f) => f.id)).toEqual(
        expect.arrayContaining(["dmarc-spf-record", "dmarc-rua-count"])
      )
      expect(r.status).toBe("warning")
    })
  )

  it.effect("invalid p with a rua is treated as p=none (RFC 7489 6.6.3)", () =>
    Effect.gen(function* () {
      const r = yield* run(
        { "_dmarc.example.com": ["v=DMARC1; p=bogus; rua=mailto:d@example.com"] },
        "example.com"
      )
      expect(r.policy).toBe("none")
      expect(r.valid).toBe(false)
    })
  )

  // RFC 7489 7.1 and Appendix B.2.3/B.2.4: third-party destinations must authorise the domain.
  it.effect("external destinations: authorised, unauthorised, unknown", () =>
    Effect.gen(function* () {
      const { source, asked } = fakeTxt({
        "_dmarc.example.com": [
          "v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com,mailto:a@thirdparty.example.net,mailto:b@other.org; ruf=mailto:c@broken.io"
        ],
        "example.com._report._dmarc.thirdparty.example.net": ["v=DMARC1"],
        "example.com._report._dmarc.broken.io": "timeout"
      })
      const r = yield* checkDmarc(source, toDomain("example.com"))
      expect(asked).toContain("example.com._report._dmarc.other.org")
      expect(r.reportDestinations.map((d) => [d.domain, d.external, d.authorised])).toEqual([
        ["example.com", false, true],
        ["thirdparty.example.net", true, true],
        ["other.org", true, false],
        ["broken.io", true, null]
      ])
      expect(r.findings.map((f) => f.id)).toEqual(
        expect.arrayContaining(["dmarc-external-unauthorised", "dmarc-external-unknown"])
      )
      expect(r.reportingEnabled).toBe(true)
    })
  )

  it.effect("an inherited policy's destinations are verified for the organisational domain", () =>
    Effect.gen(function* () {
      const { source, asked } = fakeTxt({
        "_dmarc.example.com": ["v=DMARC1; p=reject; rua=mailto:r@vendor.net"]
      })
      const r = yield* checkDmarc(source, toDomain("a.b.example.com"))
      expect(asked).toContain("example.com._report._dmarc.vendor.net")
      expect(r.reportingEnabled).toBe(false)
    })
  )

  it.effect("the registered check asks through the scan's Facts", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Dmarc, "Sub.Dmarc-Org.com.", {
        zone: {
          "_dmarc.dmarc-org.com TXT": ["v=DMARC1; p=reject; sp=quarantine; rua=mailto:d@dmarc-org.com"]
        }
      })
      expect(r).toMatchObject({
        domain: "sub.dmarc-org.com",
        inherited: true,
        source: "_dmarc.dmarc-org.com",
        effectivePolicy: "quarantine"
      })
      const failed = yield* runFake(Dmarc, "example.com", { zone: { "_dmarc.example.com TXT": "SERVFAIL" } })
      expect(failed).toMatchObject({ status: "unknown", exists: false })
    })
  )

  it.effect(
    "a rua domain that takes no mail warns; one with MX or only an address (implicit MX) does not",
    () =>
      Effect.gen(function* () {
        const dmarc =
          "v=DMARC1; p=reject; rua=mailto:d@example.com,mailto:r@reports.example.com,mailto:n@gone.example.com,mailto:x@null.example.com"
        const r = yield* runFake(Dmarc, "example.com", {
          zone: {
            "_dmarc.example.com TXT": [dmarc],
            "example.com MX": ["10 mx.example.com."],
            // RFC 5321 5.1: no MX, but an address: mail is delivered there
            "reports.example.com A": ["192.0.2.1"],
            // RFC 7505: a null MX says no mail, whatever the addresses
            "null.example.com MX": ["0 ."],
            "null.example.com A": ["192.0.2.2"]
          }
        })
        const noMx = r.findings.filter((f) => f.id === "dmarc-rua-no-mx").map((f) => f.message)
        expect(noMx).toHaveLength(2)
        expect(noMx.join(" ")).toContain("gone.example.com")
        expect(noMx.join(" ")).toContain("null.example.com")
        expect(noMx.join(" ")).not.toContain("reports.example.com")
      })
  )

  it("analyse is total: arbitrary records never throw and statuses are consistent", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 3 }), fc.boolean(), (records, fails) => {
        const g: DmarcGathered = {
          domain: "example.com",
          direct: fails
            ? { name: "_dmarc.example.com", error: "timeout" }
            : { name: "_dmarc.example.com", records: records.map((r) => `v=DMARC1;${r}`) },
          organisationalDomain: null,
          organisational: null,
          authorisations: []
        }
        const r = analyseDmarc(g)
        expect(Schema.is(DmarcResult)(r)).toBe(true)
        if (fails) expect(r.status).toBe("unknown")
        if (r.valid) expect(r.exists).toBe(true)
        if (r.pct !== undefined) expect(r.pct).toBeGreaterThanOrEqual(0)
        expect(r.pct).toBe(r.percentage)
      })
    )
  })
})
