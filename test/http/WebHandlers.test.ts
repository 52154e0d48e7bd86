import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"

// No reachable DNS: every name fails fast, so scans are inconclusive without touching the network.
const env = { DNS_RESOLVERS: "127.0.0.1:9", DNS_TIMEOUT_MS: "200", DNS_RETRIES: "0" }

layer(testApp(env))("web group over HTTP", (it) => {
  it.effect("POST /security-headers/generate: presets, config wins, 400 without either", () =>
    Effect.gen(function* () {
      const ok = yield* call("POST", "/api/security-headers/generate", {
        preset: "strict",
        config: { coep: false }
      })
      expect(ok.status).toBe(200)
      expect(Object.keys(ok.json.outputs).sort()).toEqual([
        "apache",
        "caddy",
        "cloudflare",
        "headers",
        "nginx",
        "raw"
      ])
      expect(ok.json.headers.map((h: { name: string }) => h.name)).not.toContain(
        "Cross-Origin-Embedder-Policy"
      )
      const none = yield* call("POST", "/api/security-headers/generate", {})
      expect(none).toMatchObject({ status: 400, json: { error: expect.stringMatching(/preset or config/) } })
      const bad = yield* call("POST", "/api/security-headers/generate", {
        config: { referrerPolicy: "leak-it" }
      })
      expect(bad.status).toBe(400)
      const wrongType = yield* call("POST", "/api/security-headers/generate", { preset: "lax" })
      expect(wrongType.status).toBe(400)
    })
  )

  it.effect(
    "GET /security-headers/analyze: 400 without a domain; DNS failure is unknown, never missing",
    () =>
      Effect.gen(function* () {
        expect((yield* call("GET", "/api/security-headers/analyze")).status).toBe(400)
        const r = yield* call("GET", "/api/security-headers/analyze?domain=example.com")
        expect(r.status).toBe(200)
        expect(r.json.current.map((e: { status: string }) => e.status)).toEqual(Array(6).fill("unknown"))
        expect(r.json.missing).toEqual([])
        expect(r.json.recommended.hsts).toMatch(/max-age/)
      })
  )

  it.effect(
    "GET /web/tls and /web/security-txt, declared by their checks: 400 without a domain; DNS failure is unknown, costly",
    () =>
      Effect.gen(function* () {
        for (const path of ["/api/web/tls", "/api/web/security-txt"])
          expect((yield* call("GET", path)).status, path).toBe(400)
        const tls = yield* call("GET", "/api/web/tls?domain=Example.com")
        expect(tls.status).toBe(200)
        expect(tls.json).toMatchObject({ domain: "example.com", servers: [], summary: { status: "unknown" } })
        expect(tls.headers["ratelimit-policy"]).toMatch(/^"costly";/)
        const txt = yield* call("GET", "/api/web/security-txt?domain=example.com")
        expect(txt.status).toBe(200)
        expect(txt.json).toMatchObject({ domain: "example.com", verdict: "unknown" })
        expect(txt.headers["ratelimit-policy"]).toMatch(/^"costly";/)
      })
  )

  it.effect("POST /csp/scan: 400 for unscannable URLs, 502 inconclusive, then 429 with Retry-After", () =>
    Effect.gen(function* () {
      // Malformed URLs cost nothing; targets refused by the address policy cost a scan.
      for (const url of ["http://example.com", "corp-intranet", "https://user:pw@example.com/"]) {
        const r = yield* call("POST", "/api/csp/scan", { url })
        expect(r.status, url).toBe(400)
        expect(typeof r.json.error).toBe("string")
        // every answer says where the caller stands: the edge's costly bucket and the CSP scans
        expect(r.headers["ratelimit-policy"]).toMatch(/^"costly";q=\d+;w=\d+, "csp-scan";q=3;w=600$/)
        expect(r.headers["ratelimit"]).toMatch(/^"costly";r=\d+;t=\d+, "csp-scan";r=3;t=0$/)
      }
      for (const [i, host] of ["a.example.com", "b.example.com", "c.example.com"].entries()) {
        const r = yield* call("POST", "/api/csp/scan", { url: host })
        expect(r.status).toBe(502)
        expect(r.json).toEqual({ error: expect.any(String), inconclusive: true })
        expect(r.headers["ratelimit"]).toMatch(new RegExp(`"csp-scan";r=${2 - i};t=\\d+$`))
      }
      for (const url of ["d.example.com", "127.0.0.1"]) {
        const limited = yield* call("POST", "/api/csp/scan", { url })
        expect(limited.status, url).toBe(429)
        expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0)
        // a refusal's reset is its Retry-After
        expect(limited.headers["ratelimit"]).toMatch(
          new RegExp(`"csp-scan";r=0;t=${limited.headers["retry-after"]}$`)
        )
      }
    })
  )
})
