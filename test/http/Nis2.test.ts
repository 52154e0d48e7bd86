/**
 * GET /scan/nis2 through the real app with every outbound door closed (NOWHERE): bad input is the
 * SPEC's 400 {error} (an unknown `lang` names the allowed values), and a domain where no lookup
 * answers is `unscannable`, never a 500 and never a `non-compliant` 0.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, NOWHERE, testApp, UNLIMITED } from "./harness.ts"

describe("GET /scan/nis2", () => {
  layer(testApp({ ...NOWHERE, ...UNLIMITED }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("refuses a bad or missing domain and an unknown lang with 400 {error}", () =>
      Effect.gen(function* () {
        for (const url of [
          "/api/scan/nis2?domain=not..a..domain",
          "/api/scan/nis2",
          "/api/scan/nis2?domain=perfect.com&lang=de",
          "/api/scan/nis2?domain=perfect.com&lang=EN"
        ]) {
          const res = yield* call("GET", url)
          expect(res.status, url).toBe(400)
          expect(Object.keys(res.json)).toEqual(["error"])
        }
        const lang = yield* call("GET", "/api/scan/nis2?domain=perfect.com&lang=de")
        expect(lang.json.error).toMatch(/'lang' must be one of "en", "nl"; got "de"/)
      })
    )

    it.effect("answers unscannable when every lookup fails, in both languages", () =>
      Effect.gen(function* () {
        const en = yield* call("GET", "/api/scan/nis2?domain=perfect.com")
        expect(en.status).toBe(200)
        expect(en.json).toMatchObject({
          domain: "perfect.com",
          total: 0,
          status: "unscannable",
          criticalGaps: []
        })
        expect(en.json.caveat).toMatch(/not a compliance assessment/)
        for (const m of en.json.measures) expect(m.status).toBe("not-applicable")
        expect(en.json.measures.find((m: any) => m.id === "g").evidence[0].detail).toMatch(
          /No evidence about the domain could be observed/
        )
        const nl = yield* call("GET", "/api/scan/nis2?domain=perfect.com&lang=nl")
        expect(nl.status).toBe(200)
        expect(nl.json).toMatchObject({ status: "unscannable", cached: true, scannedAt: en.json.scannedAt })
        expect(nl.json.caveat).toMatch(/geen juridisch advies/)
        expect(nl.json.measures.find((m: any) => m.id === "b").label).toBe("Incidentenbehandeling")
      })
    )
  })
})
