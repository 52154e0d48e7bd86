/**
 * The email check (SPF + DKIM + DMARC + MX and the email score) against world scenarios that stage a
 * complete mail setup (perfect.com), a domain that sends no mail (nomail.org), and weaker ones.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { emailCheck } from "../../src/scan/EmailCheck.ts"
import { ScanWorld } from "./scanWorld.ts"

layer(ScanWorld, { timeout: 60_000 })("email check in the world", (it) => {
  it.effect("perfect.com: SPF -all, DKIM RSA-2048 + Ed25519, DMARC reject with rua: 100", () =>
    Effect.gen(function* () {
      const r = yield* emailCheck("perfect.com")
      expect(r).toMatchObject({ success: true, domain: "perfect.com", score: 100 })
      expect(r.spf).toMatchObject({ valid: true, policy: "fail" })
      expect(r.dkim.valid_keys).toBeGreaterThanOrEqual(2)
      expect(r.dmarc).toMatchObject({ exists: true, policy: "reject", reportingEnabled: true })
      expect(r.mx).toMatchObject({
        status: "pass",
        nullMx: false,
        records: [{ priority: 10, host: "mx.perfect.com" }]
      })
    })
  )

  it.effect("nomail.org: null MX understood, DKIM not expected, full score", () =>
    Effect.gen(function* () {
      const r = yield* emailCheck("nomail.org")
      expect(r.mx).toMatchObject({
        nullMx: true,
        status: "not-applicable",
        records: [{ priority: 0, host: "." }]
      })
      expect(r.spf).toMatchObject({ record: "v=spf1 -all", policy: "fail", valid: true })
      expect(r.dmarc.policy).toBe("reject")
      expect(r.scoreBreakdown.parts.find((p) => p.component === "dkim")).toMatchObject({ possible: 0 })
      expect(r.score).toBe(100)
    })
  )

  it.effect("spf-softfail.com scores below perfect.com; spf-passall.com lower still", () =>
    Effect.gen(function* () {
      const soft = yield* emailCheck("spf-softfail.com")
      const passall = yield* emailCheck("spf-passall.com")
      expect(soft.spf.policy).toBe("softfail")
      expect(soft.score).toBeLessThan(100)
      expect(soft.score).toBeGreaterThan(passall.score)
      expect(passall.scoreBreakdown.parts.find((p) => p.component === "spf")?.earned).toBe(0)
    })
  )
})
