/**
 * HTTP to HTTPS and security.txt against the world's web hosts (docs/world.md, docs/web.md): each
 * port 80 setup and each security.txt scenario gives its verdict, and `GET /api/web/security-txt`
 * answers through the API.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { HttpRedirect } from "../../src/checks/http-redirect/HttpRedirect.ts"
import { SecurityTxt } from "../../src/checks/security-txt/SecurityTxt.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"
import { domain as toDomain } from "../support/domain.ts"

const world = Layer.merge(Web.Default, Smtp.Default).pipe(
  Layer.provideMerge(Resolver.Default),
  Layer.provideMerge(AppConfig.Default),
  Layer.provide(
    Layer.unwrapEffect(
      Effect.sync(() => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(worldEnv())))))
    )
  )
)

const redirect = (domain: string) => runCheck(HttpRedirect, toDomain(domain)).pipe(Effect.provide(world))
const securityTxt = (domain: string) => runCheck(SecurityTxt, toDomain(domain)).pipe(Effect.provide(world))

describe("HTTP to HTTPS in the world", () => {
  it.live("perfect.com: apex and www redirect to https on their own host, HSTS on both", () =>
    Effect.gen(function* () {
      const r = yield* redirect("perfect.com")
      expect(r.apex).toMatchObject({
        verdict: "redirects-to-https",
        statusCode: 301,
        location: "https://perfect.com/",
        firstHopSameHost: true,
        finalUrl: "https://perfect.com/",
        finalHttps: true,
        hstsRating: "good"
      })
      expect(r.apex.hops.map((h) => h.status)).toEqual([301, 200])
      expect(r.www).toMatchObject({ verdict: "redirects-to-https", location: "https://www.perfect.com/" })
      expect(r.wwwConsistent).toBe(true)
      expect(r.issues).toEqual([])
    })
  )

  it.live("http-noredirect.com: plain HTTP serves the page", () =>
    Effect.gen(function* () {
      const r = yield* redirect("http-noredirect.com")
      expect(r.apex).toMatchObject({
        verdict: "no-redirect",
        statusCode: 200,
        location: null,
        finalHttps: false
      })
    })
  )

  it.live("http-wwwfirst.com: the first hop goes to www, another host", () =>
    Effect.gen(function* () {
      const r = yield* redirect("http-wwwfirst.com")
      expect(r.apex).toMatchObject({
        verdict: "redirects-elsewhere-first",
        location: "https://www.http-wwwfirst.com/",
        firstHopSameHost: false,
        finalHttps: true,
        // https://http-wwwfirst.com/ is never reached, so its HSTS cannot be read.
        hstsRating: "unknown"
      })
      expect(r.www.verdict).toBe("redirects-to-https")
    })
  )

  it.live("http-wwwmixed.com: the apex redirects, www does not", () =>
    Effect.gen(function* () {
      const r = yield* redirect("http-wwwmixed.com")
      expect(r.apex.verdict).toBe("redirects-to-https")
      expect(r.www.verdict).toBe("no-redirect")
      expect(r.wwwConsistent).toBe(false)
    })
  )

  it.live("http-none.com: nothing on port 80, HTTPS answers", () =>
    Effect.gen(function* () {
      const r = yield* redirect("http-none.com")
      expect(r.apex).toMatchObject({ verdict: "https-only", finalHttps: true, hstsRating: "weak" })
    })
  )

  it.live("web-httponly.com: no HTTPS at all, so no redirect", () =>
    Effect.gen(function* () {
      const r = yield* redirect("web-httponly.com")
      expect(r.apex.verdict).toBe("no-redirect")
    })
  )

  it.live("rsasha1.net: an address but nothing on port 80 or 443 is no web server", () =>
    Effect.gen(function* () {
      const r = yield* redirect("rsasha1.net")
      expect(r.apex.verdict).toBe("no-web-server")
      expect(r.apex.error).toMatch(/^connect/)
    })
  )

  it.live("bimi-nologo.com: no www host is absent, not a failure", () =>
    Effect.gen(function* () {
      const r = yield* redirect("bimi-nologo.com")
      expect(r.apex.verdict).toBe("redirects-to-https")
      expect(r.www.verdict).toBe("absent")
      expect(r.wwwConsistent).toBeNull()
    })
  )
})

describe("security.txt in the world", () => {
  it.live("perfect.com: a valid file under /.well-known/", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("perfect.com")
      expect(r).toMatchObject({
        verdict: "valid",
        found: true,
        location: "well-known",
        fetchedUrl: "https://perfect.com/.well-known/security.txt",
        contentType: "text/plain; charset=utf-8",
        contact: ["mailto:security@perfect.com"],
        canonical: ["https://perfect.com/.well-known/security.txt"],
        errors: [],
        warnings: []
      })
      expect(r.expiresInDays).toBeGreaterThan(100)
    })
  )

  it.live("sectxt-expired.com: expired", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("sectxt-expired.com")
      expect(r.verdict).toBe("expired")
      expect(r.expiresInDays).toBeLessThan(0)
    })
  )

  it.live("sectxt-html.com: served as text/html is invalid", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("sectxt-html.com")
      expect(r.verdict).toBe("invalid")
      expect(r.errors.join()).toContain("text/plain")
    })
  )

  it.live("sectxt-elsewhere.com: a redirect to another host is not followed", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("sectxt-elsewhere.com")
      expect(r).toMatchObject({
        verdict: "redirected-elsewhere",
        redirectedTo: "https://perfect.com/.well-known/security.txt",
        found: false
      })
    })
  )

  it.live("sectxt-legacy.com: only at /security.txt", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("sectxt-legacy.com")
      expect(r).toMatchObject({
        verdict: "legacy",
        location: "legacy",
        fetchedUrl: "https://sectxt-legacy.com/security.txt"
      })
    })
  )

  it.live("web-noheaders.com: missing (a 404)", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("web-noheaders.com")
      expect(r).toMatchObject({ verdict: "missing", statusCode: 404, found: false })
    })
  )

  it.live("web-httponly.com: nothing on 443 is missing, with the reason", () =>
    Effect.gen(function* () {
      const r = yield* securityTxt("web-httponly.com")
      expect(r.verdict).toBe("missing")
      expect(r.fetchError).toMatch(/^connect/)
    })
  )
})

layer(testApp(worldEnv()), { timeout: 60_000, excludeTestServices: true })(
  "GET /api/web/security-txt",
  (it) => {
    it.effect("answers the check's result for perfect.com", () =>
      Effect.gen(function* () {
        const r = yield* getJson("/api/web/security-txt?domain=perfect.com")
        expect(r.verdict).toBe("valid")
        expect(r.domain).toBe("perfect.com")
      })
    )
  }
)
