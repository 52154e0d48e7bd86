/**
 * Who may manage monitors: with MONITORS_TOKEN, the bearer token (401 without or with another);
 * without it, clients on this machine only (403 for a client a trusted proxy forwards from
 * elsewhere). GET /api/monitors is the probe: it lists every monitor's channels.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"

const list = (env: Record<string, string>, headers: Record<string, string> = {}) =>
  call("GET", "/api/monitors", undefined, headers).pipe(Effect.provide(testApp(env)))

describe("the monitors API", () => {
  it.effect(
    "without MONITORS_TOKEN answers this machine, and refuses a client forwarded from elsewhere",
    () =>
      Effect.gen(function* () {
        const here = yield* list({})
        expect([here.status, here.json]).toEqual([200, { monitors: [] }])
        const forwarded = yield* list(
          { TRUSTED_PROXIES: "127.0.0.1,::1" },
          { "X-Forwarded-For": "203.0.113.5" }
        )
        expect(forwarded.status).toBe(403)
        expect(forwarded.json).toEqual({ error: expect.stringContaining("MONITORS_TOKEN") })
        // a forwarded loopback client (the proxy's own machine) is this machine
        const local = yield* list({ TRUSTED_PROXIES: "127.0.0.1,::1" }, { "X-Forwarded-For": "127.0.0.1" })
        expect(local.status).toBe(200)
      })
  )

  it.effect("with MONITORS_TOKEN needs it as a bearer token, from anywhere", () =>
    Effect.gen(function* () {
      const env = { MONITORS_TOKEN: "s3cret-token-for-monitors" }
      const none = yield* list(env)
      expect(none.status).toBe(401)
      expect(none.headers["www-authenticate"]).toBe('Bearer realm="monitors"')
      expect((yield* list(env, { Authorization: "Bearer s3cret-token-for-monitor" })).status).toBe(401)
      expect((yield* list(env, { Authorization: "s3cret-token-for-monitors" })).status).toBe(401)
      const ok = yield* list(env, { Authorization: "Bearer s3cret-token-for-monitors" })
      expect(ok.status).toBe(200)
      const far = yield* list(
        { ...env, TRUSTED_PROXIES: "127.0.0.1,::1" },
        { Authorization: "Bearer s3cret-token-for-monitors", "X-Forwarded-For": "203.0.113.5" }
      )
      expect(far.status).toBe(200)
      const created = yield* call("POST", "/api/monitors", {
        domain: "example.com",
        every: "PT1H",
        alerts: []
      }).pipe(Effect.provide(testApp(env)))
      expect(created.status).toBe(401)
    })
  )
})
