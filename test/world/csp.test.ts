/** The CSP scan against the world's sites, and the synthesised policy served back on a copy. */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as https from "node:https"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { violations } from "../../src/checks/csp/CspAnalyse.ts"
import { crawl } from "../../src/checks/csp/CspCrawl.ts"
import { CspScanner } from "../../src/composite/CspScanner.ts"
import { withFacts } from "../../src/scan/Scanner.ts"
import { AppConfig } from "../../src/Config.ts"
import { DnsError } from "../../src/net/DnsTypes.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web, webLayerWith } from "../../src/net/Web.ts"
import { makePki } from "../net/pki.ts"

/** The scanner without a caller's limit (the HTTP side charges it). */
const free = () => 0
import { worldEnv } from "./env.ts"
import { domain } from "../support/domain.ts"

const config = (overrides: Record<string, string> = {}) =>
  Layer.unwrapEffect(
    Effect.sync(() =>
      Layer.setConfigProvider(
        ConfigProvider.fromMap(new Map(Object.entries({ ...worldEnv(), ...overrides })))
      )
    )
  )

const world = CspScanner.Default.pipe(
  Layer.provideMerge(Layer.merge(Web.Default, Smtp.Default)),
  Layer.provideMerge(Resolver.Default),
  Layer.provideMerge(AppConfig.Default),
  Layer.provide(config())
)

const ids = (findings: ReadonlyArray<{ id: string }>) => findings.map((f) => f.id)

describe("CSP scan in the world", () => {
  it.live(
    "csp-weak.com: truncated at 20 pages, inline code counted, third-party origins, unsafe-inline and wildcard",
    () =>
      Effect.gen(function* () {
        const scanner = yield* CspScanner
        const r = yield* scanner.scan({ url: "csp-weak.com" }, free)
        expect(r.url).toBe("https://csp-weak.com/")
        expect(r.origin).toBe("https://csp-weak.com")
        expect(r.pagesCrawled).toBe(20)
        expect(r.pagesFailed).toBe(0)
        expect(r.truncated).toBe(true)
        expect(r.currentCsp.source).toBe("header")
        expect(r.inlineScripts).toBeGreaterThan(0)
        expect(r.inlineStyles).toBeGreaterThan(0)
        expect(r.eventHandlerAttrs).toBeGreaterThan(0)
        const thirdParty = r.inventory.flatMap((e) => e.origins).filter((o) => o.startsWith("https://"))
        expect(thirdParty.length).toBeGreaterThan(0)
        expect(ids(r.findings)).toEqual(expect.arrayContaining(["script-unsafe-inline", "plain-wildcard"]))
        // object-src falls back to default-src * (CSP3 §6.8.3): open to any host, not "missing".
        expect(ids(r.findings)).not.toContain("missing-object-src")
        // The same reading /security-headers/analyze gives (records/CspJudge.ts).
        expect(r.currentCsp.rating).toBe("unsafe")
        expect(r.synthesis.policyString).not.toContain("'unsafe-inline'")
        expect(r.synthesis.policyString).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/)
        expect(r.synthesis.unresolvedViolations).toBe(0)
        // a second scan of the origin is served from the cache
        expect((yield* scanner.scan({ url: "https://csp-weak.com/page-1.html" }, free)).cached).toBe(true)
      }).pipe(Effect.provide(world))
  )

  it.live("csp-meta.com: the policy comes from the meta tag", () =>
    Effect.gen(function* () {
      const r = yield* (yield* CspScanner).scan({ url: "csp-meta.com" }, free)
      expect(r.currentCsp.source).toBe("meta")
      expect(r.currentCsp.policy).toContain("default-src")
      expect(ids(r.findings)).toEqual(expect.arrayContaining(["meta-policy", "missing-frame-ancestors"]))
    }).pipe(Effect.provide(world))
  )

  it.live("csp-reportonly.com: only a Report-Only policy", () =>
    Effect.gen(function* () {
      const r = yield* (yield* CspScanner).scan({ url: "csp-reportonly.com" }, free)
      expect(r.currentCsp.source).toBe("report-only-header")
      expect(ids(r.findings)).toContain("report-only")
    }).pipe(Effect.provide(world))
  )

  it.live("perfect.com: a strict enforced policy without unsafe-inline findings", () =>
    Effect.gen(function* () {
      const r = yield* (yield* CspScanner).scan({ url: "perfect.com" }, free)
      expect(r.currentCsp.source).toBe("header")
      expect(ids(r.findings)).not.toContain("script-unsafe-inline")
      expect(ids(r.findings)).not.toContain("missing-object-src")
      expect(r.inlineScripts).toBe(0)
    }).pipe(Effect.provide(world))
  )
})

describe("the synthesised policy served back on a copy of csp-weak.com", () => {
  const pki = makePki({ names: ["csp-weak-copy.com"] })
  const caFile = path.join(pki.dir, "world-and-copy-ca.pem")
  let server: https.Server | undefined
  afterAll(() => {
    server?.closeAllConnections()
    server?.close()
    pki.cleanup()
  })

  it.live("raises no violation for anything the crawler saw there", () =>
    Effect.gen(function* () {
      // 1. scan the original and keep its pages
      const original = yield* Effect.flatMap(CspScanner, (scanner) =>
        scanner.scan({ url: "csp-weak.com" }, free)
      ).pipe(Effect.provide(world))
      const policy = original.synthesis.policyString
      const web = yield* Web.pipe(Effect.provide(world))
      const copies = new Map<string, Uint8Array>()
      for (const page of original.crawl.pages) {
        const res = yield* web.get(page)
        copies.set(new URL(page).pathname, res.body)
      }
      // 2. serve the same bytes from another origin with the synthesised policy enforced
      fs.writeFileSync(caFile, fs.readFileSync(worldEnv().EXTRA_CA_FILE!, "utf8") + pki.caPem)
      server = https.createServer({ key: pki.leafKey, cert: pki.leafPem }, (req, res) => {
        const body = copies.get((req.url ?? "/").split("?")[0]!)
        if (!body) return void res.writeHead(404).end()
        res.writeHead(200, { "content-type": "text/html", "content-security-policy": policy })
        res.end(body)
      })
      const port = yield* Effect.async<number>((resume) => {
        server!.listen(0, "127.0.0.1", () => resume(Effect.succeed((server!.address() as AddressInfo).port)))
      })
      // The copy's name resolves to loopback only here: a scan's Facts resolve through this zone.
      const copyWeb = Layer.mergeAll(
        webLayerWith(() =>
          Effect.fail(new DnsError({ name: "", type: "A", reason: "other", message: "resolved by Facts" }))
        ),
        Resolver.Test({ "csp-weak-copy.com A": ["127.0.0.1"] }),
        Smtp.Test({})
      ).pipe(
        Layer.provideMerge(AppConfig.Default),
        Layer.provide(config({ EXTRA_CA_FILE: caFile, HTTP_ALLOWED_PORTS: `443,${port}` }))
      )
      // 3. crawl the copy and check the served policy against everything seen, by CSP3 matching
      const data = yield* withFacts(
        domain("csp-weak-copy.com"),
        crawl(new URL(`https://csp-weak-copy.com:${port}/`), { maxPages: 20, budgetMs: 30_000 })
      ).pipe(Effect.provide(copyWeb))
      expect(data.pages.length).toBe(original.pagesCrawled)
      expect(data.pages[0]!.cspHeader).toBe(policy)
      const seen = data.pages.flatMap((p) => [
        ...p.extract.resources,
        ...p.extract.inlineScripts,
        ...p.extract.inlineStyles,
        ...p.extract.eventHandlers
      ])
      expect(seen.length).toBeGreaterThan(20)
      expect(violations(policy, [...data.pages, ...data.stylesheets], data.origin)).toEqual([])
      // and the check is not vacuous: the site's own weak policy minus 'unsafe-inline' would block plenty
      expect(violations("default-src 'self'", data.pages, data.origin).length).toBeGreaterThan(20)
    })
  )
})
