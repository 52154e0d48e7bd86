/**
 * API keys: created, listed and revoked by the command's service in the cluster's database, and
 * read by the running service: a key with the scope passes, one without it is 403, a malformed,
 * unknown, revoked or expired key is 401 saying which. Reports stay open until a key exists.
 * LOCAL_ADMIN=false throughout, so that the test's loopback client is a stranger.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import { call, testApp } from "./harness.ts"

const STRANGER = { LOCAL_ADMIN: "false" }

/** The keys service over `dataDir`'s cluster database, as `domain-audit keys` runs it. */
const keysAt = (dataDir: string) =>
  ApiKeysCommandLive.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
  )

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

describe("API keys", () => {
  it.live(
    "open what their scopes name, and say why one cannot be used",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-keys-"))
        const { monitorsKey, readerKey, revokedKey, expiredKey, listed } = yield* Effect.gen(function* () {
          const keys = yield* ApiKeys
          const monitorsKey = yield* keys.create({ tenant: "acme", scopes: ["monitors"], validForMs: null })
          const readerKey = yield* keys.create({
            tenant: "acme",
            scopes: ["reports:read"],
            validForMs: 86_400_000
          })
          const revokedKey = yield* keys.create({ tenant: "other", scopes: ["admin"], validForMs: null })
          const expiredKey = yield* keys.create({ tenant: "other", scopes: ["monitors"], validForMs: 1 })
          expect(yield* keys.revoke(revokedKey.record.id)).toBe(true)
          expect(yield* keys.revoke("key_nonesuch")).toBe(false)
          yield* Effect.sleep("5 millis") // past the last key's expiry
          return { monitorsKey, readerKey, revokedKey, expiredKey, listed: yield* keys.list }
        }).pipe(Effect.provide(keysAt(dataDir)))
        expect(monitorsKey.key).toMatch(/^da_[A-Za-z0-9_-]{43}$/)
        // created in the same millisecond, they list in id order: compare them sorted
        expect(
          listed
            .map((k) => [k.tenant, k.scopes])
            .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
        ).toEqual([
          ["acme", ["monitors"]],
          ["acme", ["reports:read"]],
          ["other", ["admin"]],
          ["other", ["monitors"]]
        ])
        // only the hash is stored: the key's text is nowhere in the list
        expect(JSON.stringify(listed)).not.toContain(monitorsKey.key.slice(3))

        yield* Effect.gen(function* () {
          const monitors = (headers: Record<string, string> = {}) =>
            call("GET", "/api/monitors", undefined, headers)
          expect((yield* monitors(bearer(monitorsKey.key))).status).toBe(200)
          const none = yield* monitors()
          expect([none.status, none.json.error]).toEqual([401, expect.stringContaining("monitors scope")])
          expect(none.headers["www-authenticate"]).toBe('Bearer realm="domain-audit"')
          const lacking = yield* monitors(bearer(readerKey.key))
          expect([lacking.status, lacking.json]).toEqual([
            403,
            { error: "this API key lacks the monitors scope" }
          ])
          const revoked = yield* monitors(bearer(revokedKey.key))
          expect([revoked.status, revoked.json]).toEqual([401, { error: "this API key has been revoked" }])
          const expired = yield* monitors(bearer(expiredKey.key))
          expect([expired.status, expired.json]).toEqual([401, { error: "this API key has expired" }])
          const unknown = yield* monitors(bearer(`da_${"A".repeat(43)}`))
          expect([unknown.status, unknown.json]).toEqual([401, { error: "this API key is not known here" }])
          const malformed = yield* monitors(bearer("da_short"))
          expect(malformed.status).toBe(401)
          expect(malformed.json.error).toMatch(/not an API key/)
          // nothing about a key but why it cannot be used
          for (const answer of [lacking, revoked, expired, unknown, malformed])
            expect(answer.text).not.toMatch(/acme|other|key_/)

          // reports: a key exists, so reading needs reports:read and posting reports:write
          const summary = (headers: Record<string, string> = {}) =>
            call("GET", "/api/reports/dmarc/example.com", undefined, headers)
          // a tenant's key reads the domains its tenant has verified only (VerifiedDomains.test.ts)
          const unverified = yield* summary(bearer(readerKey.key))
          expect([unverified.status, unverified.json.error]).toEqual([
            403,
            expect.stringContaining("not verified")
          ])
          const anonymous = yield* summary()
          expect([anonymous.status, anonymous.json.error]).toEqual([
            401,
            expect.stringContaining("reports:read")
          ])
          expect((yield* summary(bearer(monitorsKey.key))).status).toBe(403)
          const post = yield* call("POST", "/api/reports/tls", undefined, {
            "Content-Type": "application/tlsrpt+json"
          })
          expect([post.status, post.json.error]).toEqual([401, expect.stringContaining("reports:write")])
        }).pipe(Effect.provide(testApp(STRANGER, dataDir)))
      }),
    120_000
  )

  it.effect("leave reports open while none exists (the embedded default)", () =>
    Effect.gen(function* () {
      const summary = yield* call("GET", "/api/reports/dmarc/example.com").pipe(
        Effect.provide(testApp(STRANGER))
      )
      expect(summary.status).toBe(200)
      const monitors = yield* call("GET", "/api/monitors").pipe(Effect.provide(testApp(STRANGER)))
      expect(monitors.status).toBe(403)
    })
  )
})

describe("a key's quota", () => {
  it.live(
    "replaces its address's bucket: RATE_KEY_MULTIPLIER times each policy, one bucket a key, strangers' tokens charged to the address",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-key-quota-"))
        const [a, b] = yield* Effect.gen(function* () {
          const keys = yield* ApiKeys
          return [
            (yield* keys.create({ tenant: "a", scopes: ["monitors"], validForMs: null })).key,
            (yield* keys.create({ tenant: "b", scopes: ["monitors"], validForMs: null })).key
          ] as const
        }).pipe(Effect.provide(keysAt(dataDir)))
        const env = {
          ...STRANGER,
          RATE_COSTLY_BURST: "2",
          RATE_COSTLY_PER_MINUTE: "1",
          RATE_KEY_MULTIPLIER: "3"
        }
        yield* Effect.gen(function* () {
          // GET /api/monitors is a costly route (http/edge/Admission.ts)
          const statuses = (headers: Record<string, string>, n: number) =>
            Effect.forEach(Array.from({ length: n }), () =>
              Effect.map(call("GET", "/api/monitors", undefined, headers), (r) => r.status)
            )
          const first = yield* call("GET", "/api/monitors", undefined, bearer(a))
          expect(first.headers["ratelimit-policy"]).toBe('"costly";q=6;w=120')
          expect(first.headers["ratelimit"]).toBe('"costly";r=5;t=20')
          expect(yield* statuses(bearer(a), 6)).toEqual([200, 200, 200, 200, 200, 429])
          // another key has its own bucket, whatever the address
          expect(yield* statuses(bearer(b), 1)).toEqual([200])
          // no key, or a token that names no usable key: the address's bucket (401 from the guard, until it is empty)
          expect(yield* statuses({}, 1)).toEqual([401])
          expect(yield* statuses(bearer(`da_${"A".repeat(43)}`), 2)).toEqual([401, 429])
        }).pipe(Effect.provide(testApp(env, dataDir)))
      }),
    120_000
  )
})

describe("monitors by tenant", () => {
  it.live(
    "a tenant's key sees and manages its own monitors only, a page at a time, up to MONITORS_PER_TENANT",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-tenants-"))
        const [a, b, admin] = yield* Effect.gen(function* () {
          const keys = yield* ApiKeys
          return [
            (yield* keys.create({ tenant: "a", scopes: ["monitors"], validForMs: null })).key,
            (yield* keys.create({ tenant: "b", scopes: ["monitors"], validForMs: null })).key,
            (yield* keys.create({ tenant: "ops", scopes: ["admin"], validForMs: null })).key
          ] as const
        }).pipe(Effect.provide(keysAt(dataDir)))
        yield* Effect.gen(function* () {
          const create = (key: string, domain: string) =>
            call("POST", "/api/monitors", { domain, every: "PT1H", alerts: [] }, bearer(key))
          const ids: Array<string> = []
          for (const domain of ["a1.example.com", "a2.example.com", "a3.example.com"]) {
            const created = yield* create(a, domain)
            expect([created.status, created.json.error]).toEqual([201, undefined])
            ids.push(created.json.id)
          }
          const over = yield* create(a, "a4.example.com")
          expect([over.status, over.json.error]).toEqual([
            400,
            expect.stringContaining("MONITORS_PER_TENANT")
          ])
          const bOwn = yield* create(b, "b1.example.com")
          expect(bOwn.status).toBe(201)

          const list = (key: string, query = "") =>
            call("GET", `/api/monitors${query}`, undefined, bearer(key))
          // b sees its own only; a's are as absent as monitors that never were
          expect((yield* list(b)).json.monitors.map((m: { domain: string }) => m.domain)).toEqual([
            "b1.example.com"
          ])
          expect((yield* call("GET", `/api/monitors/${ids[0]}`, undefined, bearer(b))).status).toBe(404)
          expect((yield* call("DELETE", `/api/monitors/${ids[0]}`, undefined, bearer(b))).status).toBe(404)
          expect((yield* call("GET", `/api/monitors/${ids[0]}/alerts`, undefined, bearer(b))).status).toBe(
            404
          )
          expect((yield* call("GET", `/api/monitors/${ids[0]}`, undefined, bearer(a))).status).toBe(200)

          // pages: two, then one, then none left
          const first = yield* list(a, "?limit=2")
          expect(first.json.monitors.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2))
          const second = yield* list(a, `?limit=2&cursor=${first.json.nextCursor}`)
          expect([second.json.monitors.map((m: { id: string }) => m.id), second.json.nextCursor]).toEqual([
            ids.slice(2),
            null
          ])
          for (const bad of ["?limit=0", "?limit=101", "?cursor=bm9wZQ"])
            expect((yield* list(a, bad)).status, bad).toBe(400)

          // the operator sees every tenant's
          expect((yield* list(admin)).json.monitors).toHaveLength(4)
        }).pipe(Effect.provide(testApp({ ...STRANGER, MONITORS_PER_TENANT: "3" }, dataDir)))
      }),
    120_000
  )
})
