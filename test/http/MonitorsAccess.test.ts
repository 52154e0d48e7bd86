/**
 * Who may manage monitors: the machine itself (loopback, by a name it answers to), or anyone with
 * MONITORS_TOKEN as a bearer token (401 without or with another); everyone else 403, a page that
 * reaches loopback by DNS rebinding and a client behind a proxy that forwards an unreadable address
 * included. GET /api/monitors is the probe: it lists every monitor's channels.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"

const list = (env: Record<string, string>, headers: Record<string, string> = {}) =>
  call("GET", "/api/monitors", undefined, headers).pipe(Effect.provide(testApp(env)))

/** The DNS-rebinding attack: a page at rebind.evil.example whose name now resolves to 127.0.0.1. */
const REBOUND = {
  Host: "rebind.evil.example:18080",
  Origin: "http://rebind.evil.example:18080",
  "Sec-Fetch-Site": "same-origin"
}

const MONITOR = {
  domain: "example.com",
  every: "PT1H",
  alerts: [{ type: "email", to: "ops@hooks.example.net" }]
}

describe("the monitors API", () => {
  it.effect("answers this machine, and refuses a client forwarded from elsewhere", () =>
    Effect.gen(function* () {
      const here = yield* list({})
      expect([here.status, here.json]).toEqual([200, { monitors: [], nextCursor: null }])
      const proxied = { TRUSTED_PROXIES: "127.0.0.1,::1" }
      const forwarded = yield* list(proxied, { "X-Forwarded-For": "203.0.113.5" })
      expect(forwarded.status).toBe(403)
      expect(forwarded.json).toEqual({ error: expect.stringContaining("MONITORS_TOKEN") })
      // a forwarded loopback client (the proxy's own machine) is this machine
      const local = yield* list(proxied, { "X-Forwarded-For": "127.0.0.1" })
      expect(local.status).toBe(200)
      // forms a proxy may write are read; what cannot be read is a stranger, never this machine
      for (const value of [
        "203.0.113.9:51234",
        "[2001:db8::9]:443",
        "for=203.0.113.9",
        "unknown",
        "",
        "127.0.0.1, junk"
      ])
        expect((yield* list(proxied, { "X-Forwarded-For": value })).status, value).toBe(403)
      // a proxy that rewrites Host passes the browser's name on: it must be this machine's too
      const rewritten = yield* list(proxied, {
        "X-Forwarded-For": "127.0.0.1",
        "X-Forwarded-Host": "rebind.evil.example"
      })
      expect(rewritten.status).toBe(403)
    })
  )

  // Creating a monitor starts its first run on the just-started cluster (SQLite). In one full run on
  // a loaded machine this test took past 30 s; the cluster retries a failed shard-lock attempt only
  // after its 10 s poll interval, the likeliest cause. Alone it takes about a second.
  it.effect(
    "refuses a page that reached loopback by DNS rebinding: POST, GET and DELETE",
    () =>
      Effect.gen(function* () {
        // a relay nobody answers on: the alerts are never sent, the monitor is only created
        const app = testApp({ ALERT_SMTP_URL: "smtp://127.0.0.1:9" })
        const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(app))
        yield* Effect.gen(function* () {
          const created = yield* call("POST", "/api/monitors", MONITOR)
          expect(created.status).toBe(201)
          const id = created.json.id as string
          const post = yield* call("POST", "/api/monitors", MONITOR, REBOUND)
          expect(post.status).toBe(403)
          expect(post.json).toEqual({ error: expect.stringContaining("this machine") })
          const get = yield* call("GET", "/api/monitors", undefined, REBOUND)
          expect(get.status).toBe(403)
          expect(get.text).not.toContain("hooks.example.net")
          const del = yield* call("DELETE", `/api/monitors/${id}`, undefined, REBOUND)
          expect(del.status).toBe(403)
          // nothing changed: the one monitor is still there
          const after = yield* call("GET", "/api/monitors")
          expect(after.json.monitors.map((m: { id: string }) => m.id)).toEqual([id])
          // a name this machine answers to is the machine, an Origin of another site is not
          expect((yield* call("GET", "/api/monitors", undefined, { Host: "localhost:18080" })).status).toBe(
            200
          )
          expect(
            (yield* call("GET", "/api/monitors", undefined, { Origin: "https://evil.example" })).status
          ).toBe(403)
          expect((yield* call("GET", "/api/monitors", undefined, { Origin: "null" })).status).toBe(403)
        }).pipe(run)
      }),
    90_000
  )

  it.effect("takes ALLOWED_HOSTS as this machine's names, and LOCAL_ADMIN=false as no one's", () =>
    Effect.gen(function* () {
      expect(
        (yield* list({ ALLOWED_HOSTS: "audit.example.net" }, { Host: "audit.example.net" })).status
      ).toBe(200)
      expect(
        (yield* list({ ALLOWED_HOSTS: "audit.example.net" }, { Host: "audit.example.org" })).status
      ).toBe(403)
      const off = yield* list({ LOCAL_ADMIN: "false" })
      expect(off.status).toBe(403)
    })
  )

  it.effect("with MONITORS_TOKEN needs it as a bearer token, from anywhere but the machine itself", () =>
    Effect.gen(function* () {
      const env = { MONITORS_TOKEN: "s3cret-token-for-monitors", LOCAL_ADMIN: "false" }
      const none = yield* list(env)
      expect(none.status).toBe(401)
      expect(none.headers["www-authenticate"]).toBe('Bearer realm="domain-audit"')
      expect((yield* list(env, { Authorization: "Bearer s3cret-token-for-monitor" })).status).toBe(401)
      expect((yield* list(env, { Authorization: "s3cret-token-for-monitors" })).status).toBe(401)
      const ok = yield* list(env, { Authorization: "Bearer s3cret-token-for-monitors" })
      expect(ok.status).toBe(200)
      const far = yield* list(
        { ...env, TRUSTED_PROXIES: "127.0.0.1,::1" },
        { Authorization: "Bearer s3cret-token-for-monitors", "X-Forwarded-For": "203.0.113.5" }
      )
      expect(far.status).toBe(200)
      const created = yield* call("POST", "/api/monitors", MONITOR).pipe(Effect.provide(testApp(env)))
      expect(created.status).toBe(401)
      // the machine itself needs no token while LOCAL_ADMIN is on; a rebound page still does
      const token = { MONITORS_TOKEN: env.MONITORS_TOKEN }
      expect((yield* list(token)).status).toBe(200)
      expect((yield* list(token, REBOUND)).status).toBe(401)
    })
  )
})
