/**
 * Cookies, Subresource Integrity and CORS of the world's web hosts, through GET
 * /security-headers/analyze's check, and their scored verdicts in a quick scan.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { Headers } from "../../src/checks/headers/Headers.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"
import { domain } from "../support/domain.ts"

const world = Layer.merge(Web.Default, Smtp.Default).pipe(
  Layer.provideMerge(Resolver.Default),
  Layer.provideMerge(AppConfig.Default),
  Layer.provide(
    Layer.unwrapEffect(
      Effect.sync(() => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(worldEnv())))))
    )
  )
)

describe("cookies, SRI and CORS in the world", () => {
  it.live(
    "web-cookies-insecure.com: a session cookie without Secure or HttpOnly, every Set-Cookie kept",
    () =>
      Effect.gen(function* () {
        const r = yield* runCheck(Headers, domain("web-cookies-insecure.com"))
        expect(r.cookies?.result).toBe("cookies-session-without-secure-flag")
        expect(r.cookies?.pass).toBe(false)
        expect(r.cookies?.cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite, c.session])).toEqual([
          ["sessionid", false, false, null, true],
          ["theme", false, false, "lax", false]
        ])
        expect(r.warnings.some((w) => w.startsWith("Cookie sessionid:"))).toBe(true)
        expect(r.cors?.result).toBe("cross-origin-resource-sharing-not-implemented")
      }).pipe(Effect.provide(world))
  )

  it.live("web-sri-missing.com: a script from another site without integrity", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-sri-missing.com"))
      expect(r.sri?.result).toBe("sri-not-implemented-but-external-scripts-loaded-securely")
      expect(r.sri?.pass).toBe(false)
      expect(r.sri?.externalScripts.map((s) => [s.src, s.integrity !== null])).toEqual([
        ["https://cdn.thirdparty-cdn.net/lib/widget.js", false],
        ["https://cdn.thirdparty-cdn.net/lib/lib-1.2.3.js", true]
      ])
      expect(r.cookies?.result).toBe("cookies-not-found")
    }).pipe(Effect.provide(world))
  )

  it.live("web-cors-credentials.com: any Origin echoed with credentials", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-cors-credentials.com"))
      expect(r.cors?.result).toBe("cross-origin-resource-sharing-implemented-with-universal-access")
      expect(r.cors?.allowOrigin).toBe(r.cors?.origin)
      expect(r.cors?.allowCredentials).toBe(true)
    }).pipe(Effect.provide(world))
  )

  it.live("web-cookies-redirect.com: the cookie the home page's redirect sets is judged too", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-cookies-redirect.com"))
      expect(r.finalUrl).toBe("https://web-cookies-redirect.com/index.html")
      expect(r.cookies?.result).toBe("cookies-session-without-secure-flag-but-protected-by-hsts")
      expect(r.cookies?.cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite, c.accepted])).toEqual([
        ["sessionid", false, true, "lax", true]
      ])
    }).pipe(Effect.provide(world))
  )

  it.live("web-content-good.com: prefixed Secure cookies, SRI, public CORS all pass", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Headers, domain("web-content-good.com"))
      expect(r.cookies?.result).toBe("cookies-secure-with-httponly-sessions-and-samesite")
      expect(r.cookies?.cookies.every((c) => c.accepted)).toBe(true)
      expect(r.sri?.result).toBe("sri-implemented-and-external-scripts-loaded-securely")
      expect(r.cors?.result).toBe("cross-origin-resource-sharing-implemented-with-public-access")
    }).pipe(Effect.provide(world))
  )
})

/** The quick scan's cookies, SRI and CORS records of a domain: [status, points, issues] by id. */
const verdicts = (domain: string) =>
  Effect.map(getJson(`/api/scan/quick?domain=${domain}`), (r) => {
    const out: Record<string, [string, number, ReadonlyArray<string>]> = {}
    for (const category of Object.values(r.categories) as Array<any>)
      for (const c of category.checks)
        if (["security.web.cookies", "security.web.sri", "security.web.cors"].includes(c.id))
          out[c.id] = [c.status, c.points, c.issues]
    return out
  })

describe("cookies, SRI and CORS scored in the world", () => {
  layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "each scenario fails its own rule and leaves the others not applicable; the good one passes all",
      () =>
        Effect.gen(function* () {
          const na = (points = 0) => ["not-applicable", points, []]
          expect(yield* verdicts("web-cookies-insecure.com")).toEqual({
            "security.web.cookies": ["fail", 0, ["cookies_insecure"]],
            "security.web.sri": na(),
            "security.web.cors": na()
          })
          expect(yield* verdicts("web-sri-missing.com")).toEqual({
            "security.web.cookies": na(),
            "security.web.sri": ["fail", 0, ["sri_missing"]],
            "security.web.cors": na()
          })
          expect(yield* verdicts("web-cors-credentials.com")).toEqual({
            "security.web.cookies": na(),
            "security.web.sri": na(),
            "security.web.cors": ["fail", 0, ["cors_credentials_any_origin"]]
          })
          // HSTS keeps the redirect's cookie without Secure off plain HTTP: 1 of 2
          expect((yield* verdicts("web-cookies-redirect.com"))["security.web.cookies"]).toEqual([
            "partial",
            1,
            ["cookies_insecure"]
          ])
          expect(yield* verdicts("web-content-good.com")).toEqual({
            "security.web.cookies": ["pass", 2, []],
            "security.web.sri": ["pass", 1, []],
            "security.web.cors": ["pass", 1, []]
          })
        })
    )
  })
})
