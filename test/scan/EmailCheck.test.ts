/**
 * The email check composite (`GET /email/check`) over the fake net: SPF, DKIM and DMARC as their
 * checks produce them, the MX set, and the score; unknown never reads as missing.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { generateKeyPairSync } from "node:crypto"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { emailCheck } from "../../src/scan/EmailCheck.ts"
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
