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
import { emailCheck } from "../../src/scan/EmailCheck.ts"
import { scan, scanResultSchema } from "../../src/scan/Scanner.ts"
import { fakeNet } from "../checks/facts.ts"

const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64")

const run = (zone: FakeZone, domain = "example.com") =>
  emailCheck(domain).pipe(Effect.provide(fakeNet({ zone })), Effect.orDie)

describe("email check", () => {
  it.effect("a fully protected domain scores 100", () =>
    Effect.gen(function* () {
      const r = yield* run({
        "example.com TXT": ["v=spf1 -all"],
        "example.com MX": ["10 mx.example.com."],
        "google._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${key}`],
        "_dmarc.example.com TXT": ["v=DMARC1; p=reject; rua=mailto:d@example.com"]
      })
      expect(r).toMatchObject({
        success: true,
        domain: "example.com",
        score: 100,
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

describe("the email-authentication checks in a scan", () => {
  it.effect("run once each, BIMI waiting on DMARC, and the scan encodes by its schema", () =>
    Effect.gen(function* () {
      const checks = [Spf, Dmarc, Dkim, Bimi, MtaSts] as const
      const r = yield* scan("example.com", { checks })
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
