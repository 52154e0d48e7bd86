import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Effect, Layer, TestClock } from "effect"
import { normaliseScanUrl } from "../../src/checks/csp/CspCrawl.ts"
import { CspScanner } from "../../src/composite/CspScanner.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web, WebError, type WebRequestOptions } from "../../src/net/Web.ts"
import { makeLimiter } from "../../src/http/edge/RateLimit.ts"

/** A caller with no limit: the limit itself is the HTTP side's (test/http/edge/RateLimit.test.ts). */
const free = () => 0

const html = (body: string) => new TextEncoder().encode(`<!doctype html><html><body>${body}</body></html>`)

/** A fake site: /, /p0../p29 linked from /, robots.txt disallowing /secret. */
const site = (requested: Array<string>) => (url: string, _options: WebRequestOptions) => {
  requested.push(url)
  const u = new URL(url)
  if (u.hostname === "down.example") return new WebError({ url, reason: "connect", message: "ECONNREFUSED" })
  if (u.hostname === "rebind.example")
    return new WebError({ url, reason: "refused-address", message: "private address", address: "10.0.0.1" })
  if (u.pathname === "/robots.txt")
    return {
      status: 200,
      headers: { "content-type": "text/plain" },
      body: new TextEncoder().encode("User-agent: *\nDisallow: /secret\n")
    }
  const headers = {
    "content-type": "text/html",
    "content-security-policy": "script-src 'self' 'unsafe-inline' *; style-src 'self' 'unsafe-inline'"
  }
  if (u.pathname === "/") {
    const links = Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join("")
    return {
      status: 200,
      headers,
      body: html(
        `${links}<a href="/secret">s</a><script>inline()</script><script src="https://cdn.example/x.js"></script>`
      )
    }
  }
  if (u.pathname === "/p0") return { status: 500, headers, body: html("") }
  return { status: 200, headers, body: html(`<div onclick="x()">page</div><a href="/">home</a>`) }
}

/** The fake site, answering after a short real delay so concurrent scans overlap. */
const slowWeb = (requested: Array<string>) =>
  Layer.effect(
    Web,
    Effect.map(Web, (web) =>
      Web.make({ ...web, get: (url, options) => Effect.delay(web.get(url, options), "5 millis") })
    )
  ).pipe(Layer.provide(Web.Test(site(requested))))

const layer = (requested: Array<string>, env: Record<string, string> = {}, web = Web.Test(site(requested))) =>
  CspScanner.Default.pipe(
    // The crawl reads through a scan's Facts, built over the net services (DNS and SMTP unused here).
    Layer.provideMerge(Layer.mergeAll(web, Resolver.Test({}), Smtp.Test({}))),
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

describe("normaliseScanUrl", () => {
  it.each([
    ["example.com", "https://example.com/"],
    ["  Example.COM/path?q=1#frag ", "https://example.com/path?q=1"],
    ["example.com:8443/x", "https://example.com:8443/x"],
    ["https://www.example.com", "https://www.example.com/"]
  ])("%s -> %s", (input, out) => {
    expect(String(normaliseScanUrl(input))).toBe(out)
  })
  it.each([
    "",
    "http://example.com",
    "ftp://example.com",
    "https://127.0.0.1/",
    "0x7f.1",
    "2130706433",
    "https://[::1]/",
    "localhost",
    "https://foo.localhost/",
    "intranet",
    "db.internal",
    "https://user:pw@example.com/",
    "https://exa mple.com/"
  ])("refuses %j", (input) => {
    expect(normaliseScanUrl(input)).toHaveProperty("refused")
  })
})

describe("CspScanner", () => {
  it.effect("crawls breadth-first up to CSP_MAX_PAGES, honours robots.txt, reports truncation", () => {
    const requested: Array<string> = []
    return Effect.gen(function* () {
      const scanner = yield* CspScanner
      const r = yield* scanner.scan({ url: "site.example" }, free)
      expect(r.url).toBe("https://site.example/")
      expect(r.origin).toBe("https://site.example")
      expect(r.pagesCrawled + r.pagesFailed).toBe(20)
      expect(r.pagesFailed).toBe(1) // /p0 answers 500
      expect(r.truncated).toBe(true)
      expect(requested).not.toContain("https://site.example/secret")
      expect(r.crawl.robotsDisallowed).toBe(1)
      expect(r.currentCsp).toMatchObject({ source: "header" })
      expect(r.findings.map((f) => f.id)).toEqual(
        expect.arrayContaining(["script-unsafe-inline", "plain-wildcard"])
      )
      expect(r.inlineScripts).toBe(1)
      expect(r.eventHandlerAttrs).toBe(1)
      expect(r.inventory.find((e) => e.directive === "script-src")?.origins).toEqual(["https://cdn.example"])
      expect(r.synthesis.unresolvedViolations).toBe(0)
      expect(r.synthesis.policyString).toContain("'unsafe-hashes'")
    }).pipe(Effect.provide(layer(requested)))
  })

  it.effect("charges the caller only for a new crawl; a refused charge is a 429 with its wait", () =>
    Effect.gen(function* () {
      const scanner = yield* CspScanner
      const limiter = makeLimiter({ name: "csp-scan", burst: 3, perMinute: 0.3 })
      const as = (client: string) =>
        Effect.map(Clock.currentTimeMillis, (now) => () => limiter.take(client, now).retryAfterS)
      for (const host of ["a.example", "b.example", "c.example"])
        yield* scanner.scan({ url: host }, yield* as("9.9.9.9"))
      const again = yield* scanner.scan({ url: "https://a.example/other" }, yield* as("9.9.9.9"))
      expect(again.cached).toBe(true)
      const limited = yield* Effect.flip(scanner.scan({ url: "d.example" }, yield* as("9.9.9.9")))
      expect(limited.reason).toBe("rate-limited")
      expect(limited.retryAfterSeconds).toBe(200) // one scan back every 200 s: 3 per 10 minutes
      // another client is not affected
      yield* scanner.scan({ url: "d.example" }, yield* as("8.8.8.8"))
      yield* TestClock.adjust("100 seconds")
      const later = yield* Effect.flip(scanner.scan({ url: "e.example" }, yield* as("9.9.9.9")))
      expect(later.retryAfterSeconds).toBe(100)
      yield* TestClock.adjust("100 seconds")
      yield* scanner.scan({ url: "e.example" }, yield* as("9.9.9.9"))
      yield* TestClock.adjust("10 minutes")
      const fresh = yield* scanner.scan({ url: "a.example" }, yield* as("9.9.9.9"))
      expect(fresh.cached).toBe(false) // the cache entry expired after 10 minutes
    }).pipe(Effect.provide(layer([], { CSP_MAX_PAGES: "2" })))
  )

  it.live("concurrent scans of one origin share one crawl", () => {
    const requested: Array<string> = []
    return Effect.gen(function* () {
      const scanner = yield* CspScanner
      const [a, b] = yield* Effect.all(
        [scanner.scan({ url: "same.example" }, free), scanner.scan({ url: "same.example/x" }, free)],
        { concurrency: "unbounded" }
      )
      expect([a.cached, b.cached].sort()).toEqual([false, true])
      expect(requested.filter((u) => u === "https://same.example/")).toHaveLength(1)
    }).pipe(Effect.provide(layer(requested, { CSP_MAX_PAGES: "3" }, slowWeb(requested))))
  })

  it.effect("is inconclusive (502) when no page could be crawled, and refuses internal targets (400)", () =>
    Effect.gen(function* () {
      const scanner = yield* CspScanner
      const down = yield* Effect.flip(scanner.scan({ url: "down.example" }, free))
      expect(down.reason).toBe("inconclusive")
      const rebind = yield* Effect.flip(scanner.scan({ url: "rebind.example" }, free))
      expect(rebind.reason).toBe("invalid-url")
      const literal = yield* Effect.flip(scanner.scan({ url: "https://10.0.0.1/" }, free))
      expect(literal.reason).toBe("invalid-url")
    }).pipe(Effect.provide(layer([])))
  )
})
