/**
 * Who the client is before what its body may be (src/http/edge/AuthFirst.ts): a wrong Content-Type
 * to an endpoint that needs a key is the guard's 401 (or 403) for a client the guard refuses, and
 * the body's 415 only for one it lets through; an endpoint without a guard, and a guarded one open
 * while no key exists, answer 415 as before. LOCAL_ADMIN=false, so the test's loopback client is a
 * stranger.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import { testApp } from "./harness.ts"

const keysAt = (dataDir: string) =>
  ApiKeysCommandLive.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
  )

/** A POST whose body is sent as text/plain, with `key` as the bearer token when given. */
const postText = (path: string, key?: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(path).pipe(
        HttpClientRequest.setHeaders(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
        HttpClientRequest.bodyText("{}", "text/plain")
      )
    )
    const body = yield* response.text
    return { status: response.status, headers: response.headers, json: JSON.parse(body) }
  }).pipe(Effect.scoped)

describe("a guarded endpoint's guard before its body rules", () => {
  it.live(
    "refuses a client without a usable key with 401 (403 without the scope), and judges the body of one it admits",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-auth-first-"))
        const [reader, writer] = yield* Effect.gen(function* () {
          const keys = yield* ApiKeys
          const make = (scopes: ReadonlyArray<"reports:read" | "reports:write">) =>
            Effect.map(keys.create({ tenant: "msp-a", scopes, validForMs: null }), (k) => k.key)
          return [yield* make(["reports:read"]), yield* make(["reports:read", "reports:write"])] as const
        }).pipe(Effect.provide(keysAt(dataDir)))

        yield* Effect.gen(function* () {
          for (const path of ["/api/domains", "/api/monitors", "/api/reports/dmarc"]) {
            const anonymous = yield* postText(path)
            expect([path, anonymous.status]).toEqual([path, 401])
            expect(anonymous.json).toEqual({ error: expect.any(String) })
            expect(anonymous.json.error).not.toMatch(/Content-Type/)
            expect(anonymous.headers["www-authenticate"]).toMatch(/^Bearer/)
            const badKey = yield* postText(path, "da_short")
            expect([path, badKey.status]).toEqual([path, 401])
          }
          // a key without the scope: 403, still before the body
          const unscoped = yield* postText("/api/reports/dmarc", reader)
          expect([unscoped.status, unscoped.json.error]).toEqual([
            403,
            expect.stringContaining("reports:write")
          ])
          // admitted: the body's rule answers
          const claim = yield* postText("/api/domains", reader)
          expect([claim.status, claim.json.error]).toEqual([415, expect.stringContaining("application/json")])
          const report = yield* postText("/api/reports/dmarc", writer)
          expect(report.status).toBe(415)
          // no guard: the body's rule as before
          const scan = yield* postText("/api/scan")
          expect(scan.status).toBe(415)
        }).pipe(Effect.provide(testApp({ LOCAL_ADMIN: "false" }, dataDir)))
      }),
    60_000
  )

  it.live("a guard open while no key exists lets the body's rule answer", () =>
    Effect.gen(function* () {
      const report = yield* postText("/api/reports/dmarc")
      expect(report.status).toBe(415)
      const claim = yield* postText("/api/domains")
      expect(claim.status).toBe(401)
    }).pipe(Effect.provide(testApp({ LOCAL_ADMIN: "false" })))
  )
})
