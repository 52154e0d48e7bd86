/**
 * Honest section wording in the world: a section that says fail or partial names each rule behind
 * it, a valid BIMI record reads pass (not not-applicable), DKIM's "no key under the known
 * selectors" is never worded as a lookup that did not answer, and a CSP that is sent but unsafe is
 * judged, not listed as missing.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

describe("section wording in the world", () => {
  layer(testApp(worldEnv()), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("every failing or partial section names its rules; valid BIMI passes", () =>
      Effect.gen(function* () {
        for (const domain of ["perfect.com", "unsigned.net", "dmarc-none.com", "csp-weak.com"]) {
          const report = yield* getJson(`/api/report/everything?domain=${domain}`)
          for (const row of report.summary.sections as Array<{
            key: string
            status: string
            findings: number
          }>)
            // Sender requirements are a view over the findings they depend on (the fixes the
            // mailbox providers require), so the section has no findings of its own to count.
            if (
              (row.status === "fail" || row.status === "partial") &&
              row.key !== "quickScore" &&
              row.key !== "senderRequirements"
            )
              expect(row.findings, `${domain} ${row.key}`).toBeGreaterThan(0)
          if (domain === "perfect.com") {
            expect(report.machineReadable.scan.checks.bimi.result).toMatchObject({
              valid: true,
              status: "pass"
            })
            expect(report.sections.bimi.status).toBe("pass")
          }
        }
      })
    )

    it.effect("DKIM not found under the known selectors is worded as such in NIS2", () =>
      Effect.gen(function* () {
        const card = yield* getJson(`/api/scan/nis2?domain=unsigned.net`)
        const dkim = card.measures
          .flatMap((m: { evidence: Array<{ checkId: string; detail: string }> }) => m.evidence)
          .find((e: { checkId: string }) => e.checkId === "email.dkim")
        expect(dkim.detail).toMatch(/no key under the selectors we know/)
        expect(dkim.detail).not.toMatch(/did not answer|could not be observed/i)
      })
    )

    it.effect("a CSP that is sent but unsafe is judged, not listed as missing", () =>
      Effect.gen(function* () {
        const r = yield* getJson(`/api/security-headers/analyze?domain=csp-weak.com`)
        expect(r.missing).not.toContain("Content-Security-Policy")
        expect(r.current.find((e: { name: string }) => e.name === "Content-Security-Policy")).toMatchObject({
          present: true,
          rating: "unsafe"
        })
        const none = yield* getJson(`/api/security-headers/analyze?domain=web-noheaders.com`)
        expect(none.missing).toContain("Content-Security-Policy")
      })
    )
  })
})
