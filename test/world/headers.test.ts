/** Security headers against the world's web hosts (docs/world.md). */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { Headers } from "../../src/checks/headers/Headers.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { worldEnv } from "./env.ts"
import { domain } from "../support/domain.ts"

const world = (overrides: Record<string, string> = {}) =>
  Layer.merge(Web.Default, Smtp.Default).pipe(
    Layer.provideMerge(Resolver.Default),
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(
      Layer.unwrapEffect(
        Effect.sync(() =>
          Layer.setConfigProvider(
            ConfigProvider.fromMap(new Map(Object.entries({ ...worldEnv(), ...overrides })))
          )
        )
      )
    )
  )

describe("security headers in the world", () => {
  it.live("perfect.com: all six headers present and strong", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("perfect.com"))
      expect(r.httpsAvailable).toBe(true)
      expect(r.headerFetchTimedOut).toBe(false)
      expect(r.missing).toEqual([])
      expect(r.current.map((e) => [e.name, e.status, e.rating])).toEqual(
        r.current.map((e) => [e.name, "pass", "good"])
      )
      expect(r.note).toBeUndefined()
      expect(Object.keys(r.outputs)).toHaveLength(6)
    }).pipe(Effect.provide(world()))
  )

  it.live("web-noheaders.com: HTTPS works, every header missing", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-noheaders.com"))
      expect(r.httpsAvailable).toBe(true)
      expect(r.missing).toHaveLength(6)
      expect(r.current.every((e) => e.status === "missing" && e.value === null)).toBe(true)
      expect(r.recommended.hsts).toBe("max-age=31536000; includeSubDomains")
      expect(r.outputs.nginx).toContain("add_header Strict-Transport-Security")
    }).pipe(Effect.provide(world()))
  )

  it.live("web-httponly.com: no HTTPS", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-httponly.com"))
      expect(r.httpsAvailable).toBe(false)
      expect(r.headerFetchTimedOut).toBe(false)
      expect(r.statusCode).toBeNull()
      expect(r.warnings.join("\n")).toMatch(/plain HTTP only/)
    }).pipe(Effect.provide(world()))
  )

  it.live("web-slow.com: timed out, so every status is unknown, nothing missing, a note", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-slow.com"))
      expect(r.headerFetchTimedOut).toBe(true)
      expect(r.current.map((e) => e.status)).toEqual(Array(6).fill("unknown"))
      expect(r.missing).toEqual([])
      expect(r.note).toMatch(/could not be verified/)
    }).pipe(Effect.provide(world({ HTTP_TIMEOUT_MS: "1500" })))
  )
})
