/**
 * The email check (SPF + DKIM + DMARC + MX and the email score) against world scenarios that stage a
 * complete mail setup (perfect.com), a domain that sends no mail (nomail.org), and weaker ones.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { emailCheck } from "../../src/composite/EmailCheck.ts"
import { EMAIL_SPECS } from "../score/specs.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain } from "../support/domain.ts"

layer(ScanWorld, { timeout: 60_000 })("email check in the world", (it) => {
  it.effect("perfect.com: SPF -all, DKIM RSA-2048 + Ed25519, DMARC reject with rua: 100", () =>
    Effect.gen(function* () {
      const r = yield* emailCheck(domain("perfect.com"))
      expect(r).toMatchObject({ success: true, domain: "perfect.com", score: 100 })
      expect(r.scoreBreakdown).toMatchObject({ category: "email", partial: false })
      expect(r.scoreBreakdown.points).toBe(r.scoreBreakdown.maxPoints)
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
      const r = yield* emailCheck(domain("nomail.org"))
      expect(r.mx).toMatchObject({
        nullMx: true,
        status: "not-applicable",
        records: [{ priority: 0, host: "." }]
      })
      expect(r.spf).toMatchObject({ record: "v=spf1 -all", policy: "fail", valid: true })
      expect(r.dmarc.policy).toBe("reject")
      // Null MX: DKIM, DMARC reporting, MTA-STS and TLS-RPT do not apply (0 of 0); SPF and DMARC earn all.
      const status = (id: string) => r.scoreBreakdown.checks.find((c) => c.id === id)?.status
      for (const s of [EMAIL_SPECS.dkim, EMAIL_SPECS.dmarcRua, EMAIL_SPECS.mtaSts, EMAIL_SPECS.tlsRpt])
        expect(status(s.id)).toBe("not-applicable")
      const applicable = [
        EMAIL_SPECS.spfValid,
        EMAIL_SPECS.spfPolicy,
        EMAIL_SPECS.dmarcValid,
        EMAIL_SPECS.dmarcPolicy
      ]
      const max = applicable.reduce((n, s) => n + s.maxPoints, 0)
      expect(r.scoreBreakdown).toMatchObject({ points: max, maxPoints: max })
      expect(r.score).toBe(100)
    })
  )

  it.effect("spf-softfail.com scores below perfect.com; spf-passall.com lower still", () =>
    Effect.gen(function* () {
      const soft = yield* emailCheck(domain("spf-softfail.com"))
      const passall = yield* emailCheck(domain("spf-passall.com"))
      expect(soft.spf.policy).toBe("softfail")
      expect(soft.score).toBeLessThan(100)
      expect(soft.score).toBeGreaterThan(passall.score)
      const spfPolicy = (r: typeof soft) =>
        r.scoreBreakdown.checks.find((c) => c.id === EMAIL_SPECS.spfPolicy.id)
      // ~all earns 3 of the policy's points (the model's partial), +all none and is fatal.
      expect(spfPolicy(soft)).toMatchObject({
        status: "partial",
        points: 3,
        maxPoints: EMAIL_SPECS.spfPolicy.maxPoints
      })
      expect(spfPolicy(passall)).toMatchObject({ status: "fail", points: 0, fatal: true })
    })
  )
})
