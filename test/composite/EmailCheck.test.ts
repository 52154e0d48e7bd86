/**
 * The email check composite (`GET /email/check`) over the fake net: SPF, DKIM and DMARC as their
 * checks produce them, the MX set, and the score; unknown never reads as missing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { Bimi } from "../../src/checks/bimi/Bimi.ts"
import { Dkim } from "../../src/checks/dkim/Dkim.ts"
import { Dmarc } from "../../src/checks/dmarc/Dmarc.ts"
import { MtaSts } from "../../src/checks/mta-sts/MtaSts.ts"
import { Spf } from "../../src/checks/spf/Spf.ts"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { emailCheck } from "../../src/composite/EmailCheck.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { scanResultSchema } from "../../src/scan/ScanResult.ts"
import { EMAIL_SPECS } from "../score/specs.ts"
import { score } from "../../src/score/Score.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain as toDomain } from "../support/domain.ts"

const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64")

const protectedZone: FakeZone = {
  "example.com TXT": ["v=spf1 -all"],
  "example.com MX": ["10 mx.example.com."],
  "google._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${key}`],
  "_dmarc.example.com TXT": ["v=DMARC1; p=reject; rua=mailto:d@example.com"]
}

const run = (zone: FakeZone, domain = "example.com") =>
  emailCheck(toDomain(domain)).pipe(Effect.provide(fakeNet({ zone })), Effect.orDie)

describe("email check", () => {
  it.effect("SPF, DKIM and DMARC at their best, no MTA-STS or TLS-RPT: the model's email category", () =>
    Effect.gen(function* () {
      const r = yield* run(protectedZone)
      // Every email rule earns its maximum but MTA-STS and TLS-RPT, which fail (no records).
      const max = Object.values(EMAIL_SPECS).reduce((n, s) => n + s.maxPoints, 0)
      const lost = EMAIL_SPECS.mtaSts.maxPoints + EMAIL_SPECS.tlsRpt.maxPoints
      expect(r.scoreBreakdown).toMatchObject({ points: max - lost, maxPoints: max, partial: false })
      expect(r.scoreBreakdown.checks.filter((c) => c.status !== "pass").map((c) => c.id)).toEqual([
        EMAIL_SPECS.mtaSts.id,
        EMAIL_SPECS.tlsRpt.id,
        EMAIL_SPECS.bimi.id // no BIMI record: not applicable, 0 of 0
      ])
      expect(r).toMatchObject({
        success: true,
        domain: "example.com",
        score: Math.floor((100 * (max - lost)) / max),
        spf: { policy: "fail" },
        dkim: { valid_keys: 1 },
        dmarc: { policy: "reject" },
        mx: { status: "pass", records: [{ priority: 10, host: "mx.example.com" }] }
      })
    })
  )

  it.effect("a null MX is read as such; failed lookups are unknown, and all unknown is no success", () =>
    Effect.gen(function* () {
      const nullMx = yield* run({ "example.com MX": ["0 ."], "example.com TXT": ["v=spf1 -all"] })
      expect(nullMx.mx).toMatchObject({ nullMx: true, status: "not-applicable", records: [{ host: "." }] })
      const broken = yield* run({
        "example.com TXT": "SERVFAIL",
        "example.com MX": "SERVFAIL",
        "_dmarc.example.com TXT": "SERVFAIL"
      })
      expect(broken.mx.status).toBe("unknown")
      expect(broken.spf.status).toBe("unknown")
      expect(broken.dmarc.status).toBe("unknown")
      expect(broken.success).toBe(false)
    })
  )
})

describe("one model: /email/check's score is the scan's email category", () => {
  const zones: Record<string, FakeZone> = {
    protected: protectedZone,
    "null MX": {
      "example.com MX": ["0 ."],
      "example.com TXT": ["v=spf1 -all"],
      "_dmarc.example.com TXT": ["v=DMARC1; p=reject"]
    },
    "softfail, p=none": {
      "example.com TXT": ["v=spf1 mx ~all"],
      "example.com MX": ["10 mx.example.com."],
      "_dmarc.example.com TXT": ["v=DMARC1; p=none"]
    },
    "+all, quarantine pct=50": {
      "example.com TXT": ["v=spf1 +all"],
      "example.com MX": ["10 mx.example.com."],
      "_dmarc.example.com TXT": ["v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com"]
    },
    "lookups fail": {
      "example.com TXT": "SERVFAIL",
      "example.com MX": "SERVFAIL",
      "_dmarc.example.com TXT": "SERVFAIL"
    }
  }
  for (const [name, zone] of Object.entries(zones))
    it.effect(name, () =>
      Effect.gen(function* () {
        const net = fakeNet({ zone })
        const check = yield* emailCheck(toDomain("example.com")).pipe(Effect.provide(net))
        const email = score(yield* scan(toDomain("example.com")).pipe(Effect.provide(net))).categories.email
        expect(check.score).toBe(email.score)
        const { scoringVersion: _v, category: _c, partial: _p, ...breakdown } = check.scoreBreakdown
        expect(breakdown).toEqual(email)
      })
    )
})

describe("the email-authentication checks in a scan", () => {
  it.effect("run once each, BIMI waiting on DMARC, and the scan encodes by its schema", () =>
    Effect.gen(function* () {
      const checks = [Spf, Dmarc, Dkim, Bimi, MtaSts] as const
      const r = yield* scan(toDomain("example.com"), { checks })
      for (const c of checks) expect(r.checks[c.id]).toMatchObject({ status: "done", reason: null })
      expect(r.checks.bimi.needs).toEqual(["dmarc"])
      expect(r.checks.bimi.result?.dmarc).toMatchObject({ policy: "reject", eligible: true })
      expect(r.checks.dmarc.result?.policy).toBe("reject")
      expect(r.checks["mta-sts"].result?.status).toBe("missing")
      expect(() => Schema.encodeSync(scanResultSchema(checks))(r)).not.toThrow()
    }).pipe(
      Effect.provide(
        fakeNet({
          zone: {
            "example.com TXT": ["v=spf1 -all"],
            "example.com MX": ["10 mx.example.com."],
            "_dmarc.example.com TXT": ["v=DMARC1; p=reject; rua=mailto:d@example.com"],
            "default._bimi.example.com TXT": ["v=BIMI1; l=https://example.com/logo.svg"]
          }
        })
      )
    )
  )
})
