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

    it.effect("refuse listed names that are not host names, not under the domain, or too many", () =>
      Effect.gen(function* () {
        const many = Array.from({ length: 21 }, (_, i) => `n${i}.example.com`).join(",")
        const cases: ReadonlyArray<readonly [ReturnType<typeof call>, RegExp]> = [
          [
            call("GET", "/api/scan/quick?domain=example.com&names=shop.example.com,evil.net"),
            /'evil\.net' is not example\.com or a name under it/
          ],
          [
            call("GET", "/api/scan/quick?domain=example.com&names=shop..example.com"),
            /'shop\.\.example\.com' is not a host name/
          ],
          [call("GET", `/api/scan/quick?domain=example.com&names=${many}`), /at most 20 names/],
          [
            call("POST", "/api/scan", { domain: "example.com", names: ["shop.example.org"] }),
            /'shop\.example\.org'/
          ],
          [call("GET", "/api/scan/nis2?domain=example.com&names=example.net"), /'example\.net'/],
          [
            call("GET", "/api/dns/dependencies?domain=shop.example.com&names=example.com"),
            /'example\.com' is not shop\.example\.com/
          ]
        ]
        for (const [request, message] of cases) {
          const res = yield* request
          expect(res.status).toBe(400)
          expect(Object.keys(res.json)).toEqual(["error"])
          expect(res.json.error).toMatch(message)
        }
      })
    )

    it.effect("a scan with listed names is a run of its own, shared under the domain and the names", () =>
      Effect.gen(function* () {
        const plain = yield* call("GET", "/api/scan/quick?domain=names.example.com")
        expect(plain.status).toBe(200)
        const listed = yield* call(
          "GET",
          "/api/scan/quick?domain=names.example.com&names=Shop.names.example.com."
        )
        expect(listed.status).toBe(200)
        expect(listed.json.cached).toBe(false)
        // The same names in another spelling and order, in a body: the same run, from the cache.
        const again = yield* call("POST", "/api/scan", {
          domain: "names.example.com",
          names: "shop.names.example.com,SHOP.names.example.com"
        })
        expect(again.json.cached).toBe(true)
        const map = yield* call(
          "GET",
          "/api/dns/dependencies?domain=names.example.com&names=shop.names.example.com"
        )
        expect(map.status).toBe(200)
        expect(map.json.names).toEqual(["shop.names.example.com"])
        const bare = yield* call("GET", "/api/dns/dependencies?domain=names.example.com")
        expect(bare.json.names).toBeUndefined()
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
