/**
 * GET /scan/quick and POST /scan through the real app with every outbound door closed (NOWHERE):
 * bad input is the SPEC's 400 with {error}; a scan where nothing answers is a result, never a 500.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, NOWHERE, testApp, UNLIMITED } from "./harness.ts"

describe("the scan endpoints", () => {
  layer(testApp({ ...NOWHERE, ...UNLIMITED }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("refuse a bad domain or a missing one with 400 {error}", () =>
      Effect.gen(function* () {
        for (const res of [
          yield* call("GET", "/api/scan/quick?domain=not..a..domain"),
          yield* call("GET", "/api/scan/quick"),
          yield* call("POST", "/api/scan", { domain: "-bad-.com" }),
          yield* call("POST", "/api/scan", {})
        ]) {
          expect(res.status).toBe(400)
          expect(Object.keys(res.json)).toEqual(["error"])
        }
      })
    )

    it.effect("score a domain whose every lookup fails as unknown: F, nothing scored, not a 500", () =>
      Effect.gen(function* () {
        const res = yield* call("GET", "/api/scan/quick?domain=example.com")
        expect(res.status).toBe(200)
        expect(res.json).toMatchObject({
          domain: "example.com",
          scoringVersion: "2026.2",
          points: 0,
          maxPoints: 0,
          grade: "F"
        })
        // One verdict: the domain could not be graded, and the reason says why (no cap text).
        expect(res.json.unscannable).toBe("no DNS question about example.com was answered")
        expect(res.json.gradeInfo).toMatchObject({ label: "Unscannable", caps: [] })
        for (const c of Object.values(res.json.categories) as Array<any>) {
          expect(c.status).toBe("not-applicable")
          for (const check of c.checks) expect(["unknown", "not-applicable"]).toContain(check.status)
        }
        const full = yield* call("POST", "/api/scan", { domain: "example.com" })
        expect(full.status).toBe(200)
        expect(full.json.cached).toBe(true)
      })
    )
  })
})
