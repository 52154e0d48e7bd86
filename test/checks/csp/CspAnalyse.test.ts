import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { analyseCrawl, CspScanResult } from "../../../src/checks/csp/CspResult.ts"
import {
  type CrawledPage,
  currentCsp,
  findings,
  inlineCounts,
  inventory,
  synthesise,
  violations
} from "../../../src/checks/csp/CspAnalyse.ts"
import { extract, type FetchDirective, type PageExtract, sha256 } from "../../../src/checks/csp/CspExtract.ts"
import { runs } from "../../support/runs.ts"

const ORIGIN = "https://site.example"
const page = (
  html: string,
  headers: { csp?: string; ro?: string } = {},
  url = `${ORIGIN}/`
): CrawledPage => ({
  url,
  status: 200,
  cspHeader: headers.csp ?? null,
  cspReportOnlyHeader: headers.ro ?? null,
  extract: extract(html, url)
})

const WEAK_HTML = `<!doctype html><html><head>
<base href="/">
<link rel="stylesheet" href="https://cdn.example/style.css">
<link rel="icon" href="/favicon.ico">
<script src="https://cdn.example/lib.js"></script>
<script src="/app.js"></script>
<script type="application/ld+json">{"@context":"https://schema.org"}</script>
<script>window.dataLayer = [];</script>
<style>body { background: url(https://img.example/bg.png) } @font-face { src: url(/f.woff2) }</style>
</head><body>
<a href="/about">About</a><a href="https://elsewhere.example/">ext</a><a href="/doc.pdf">pdf</a>
<img src="https://img.example/a.png" srcset="/a-2x.png 2x, https://img2.example/a-3x.png 3x">
<img src="data:image/png;base64,AAAA">
<iframe src="https://www.youtube.example/embed/x"></iframe>
<video src="https://media.example/v.mp4" poster="/poster.jpg"><track src="/subs.vtt"></video>
<form action="https://forms.example/submit"></form>
<button onclick="track('x')" style="color: red">Go</button>
<a href="javascript:void(0)">js</a>
<script>fetch("https://api.example/v1/data")</script>
</body></html>`

describe("CspExtract", () => {
  it("sees resources per directive, inline code, handlers and links", () => {
    const e = extract(WEAK_HTML, `${ORIGIN}/`)
    const by = (d: FetchDirective) => e.resources.filter((r) => r.directive === d).map((r) => r.url)
    expect(by("script-src")).toEqual(["https://cdn.example/lib.js", `${ORIGIN}/app.js`])
    expect(by("style-src")).toEqual(["https://cdn.example/style.css"])
    expect(by("img-src")).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/favicon.ico`,
        "https://img.example/a.png",
        "https://img2.example/a-3x.png",
        "data:",
        "https://img.example/bg.png",
        `${ORIGIN}/poster.jpg`
      ])
    )
    expect(by("font-src")).toEqual([`${ORIGIN}/f.woff2`])
    expect(by("frame-src")).toEqual(["https://www.youtube.example/embed/x"])
    expect(by("media-src")).toEqual(["https://media.example/v.mp4", `${ORIGIN}/subs.vtt`])
    expect(by("form-action")).toEqual(["https://forms.example/submit"])
    expect(by("connect-src")).toEqual(["https://api.example/v1/data"])
    expect(e.inlineScripts).toEqual(["window.dataLayer = [];", 'fetch("https://api.example/v1/data")'])
    expect(e.inlineStyles).toHaveLength(1)
    expect(e.eventHandlers).toEqual(["track('x')"])
    expect(e.styleAttributes).toEqual(["color: red"])
    expect(e.javascriptUrls).toBe(1)
    expect(e.links).toEqual([`${ORIGIN}/about`, "https://elsewhere.example/"])
    expect(e.baseHref).toBe(`${ORIGIN}/`)
  })

  it("hashes like browsers: sha256 base64 of the raw text", () => {
    expect(sha256("alert(1)")).toBe("bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=")
  })

  it("never throws on arbitrary HTML", () => {
    fc.assert(
      fc.property(fc.string(), (html) => {
        extract(html, `${ORIGIN}/x`)
      })
    )
  })
})

describe("current policy and findings", () => {
  it("prefers what is enforced (header, then meta) to what is only reported, and names each", () => {
    const both = currentCsp(page("", { csp: "a", ro: "b" }))
    expect(both).toMatchObject({
      source: "header",
      policy: "a",
      reportOnlyPolicy: "b",
      enforcedPolicy: "a",
      headerPolicy: "a",
      metaPolicy: null
    })
    // Report-Only alone: named as such, nothing enforced, no field saying otherwise.
    expect(currentCsp(page("", { ro: "b" }))).toMatchObject({
      source: "report-only-header",
      policy: "b",
      reportOnlyPolicy: "b",
      enforcedPolicy: null
    })
    const metaTag = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`
    expect(currentCsp(page(metaTag))).toMatchObject({
      source: "meta",
      policy: "default-src 'self'",
      reportOnlyPolicy: null,
      enforcedPolicy: "default-src 'self'",
      metaPolicy: "default-src 'self'"
    })
    // A meta policy is enforced; a Report-Only header beside it is not what the page is judged by.
    expect(currentCsp(page(metaTag, { ro: "b" }))).toMatchObject({
      source: "meta",
      reportOnlyPolicy: "b",
      enforcedPolicy: "default-src 'self'"
    })
    expect(currentCsp(page(metaTag, { csp: "a" }))).toMatchObject({
      source: "header",
      enforcedPolicy: "a, default-src 'self'"
    })
    expect(currentCsp(page(""))).toMatchObject({ source: "none", policy: null, enforcedPolicy: null })
  })

  it("maps csp_evaluator findings and adds the missing directives", () => {
    const f = findings({ source: "header", policy: "script-src * 'unsafe-inline'" }, false)
    const ids = f.map((x) => x.id)
    expect(ids).toEqual(
      expect.arrayContaining([
        "script-unsafe-inline",
        "plain-wildcard",
        "missing-object-src",
        "missing-base-uri",
        "missing-frame-ancestors"
      ])
    )
    for (const x of f) {
      expect(["high", "medium", "low", "info"]).toContain(x.severity)
      expect(x.title.length).toBeGreaterThan(0)
      expect(x.directive.length).toBeGreaterThan(0)
    }
    expect(ids.filter((i) => i === "missing-object-src")).toHaveLength(1)
  })

  it("strict mode adds the strict-CSP checks (strict-dynamic, Trusted Types)", () => {
    const csp = {
      source: "header" as const,
      policy: "script-src https://cdn.example; object-src 'none'; base-uri 'none'",
      reportOnlyPolicy: null
    }
    const normal = findings(csp, false).map((f) => f.id)
    const strict = findings(csp, true).map((f) => f.id)
    expect(normal).not.toContain("strict-dynamic")
    expect(strict).toEqual(expect.arrayContaining(["strict-dynamic", "require-trusted-types-for-scripts"]))
  })

  it("a strong policy has no missing-directive findings; none, report-only and meta are flagged", () => {
    const strong =
      "default-src 'none'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'; object-src 'none'"
    expect(findings({ source: "header", policy: strong }, false).map((f) => f.id)).not.toContain(
      "missing-base-uri"
    )
    expect(findings({ source: "none", policy: null }, false)[0]!.id).toBe("no-csp")
    expect(findings({ source: "report-only-header", policy: strong }, false).map((f) => f.id)).toContain(
      "report-only"
    )
    expect(findings({ source: "meta", policy: strong }, false).map((f) => f.id)).toContain("meta-policy")
  })
})

describe("inventory and synthesis", () => {
  it("lists external origins per directive with self", () => {
    const inv = inventory([page(WEAK_HTML)], ORIGIN)
    expect(inv.find((e) => e.directive === "script-src")!.origins).toEqual(["self", "https://cdn.example"])
    expect(inv.find((e) => e.directive === "img-src")!.origins).toEqual([
      "self",
      "data:",
      "https://img.example",
      "https://img2.example"
    ])
    expect(inlineCounts([page(WEAK_HTML), page(WEAK_HTML, {}, `${ORIGIN}/about`)])).toMatchObject({
      inlineScripts: 2,
      inlineStyles: 1,
      eventHandlerAttrs: 1
    })
  })

  it("synthesises a policy with hashes, strict object-src/base-uri/frame-ancestors, allowing everything seen", () => {
    const pages = [page(WEAK_HTML)]
    const s = synthesise(pages, ORIGIN)
    expect(s.policyString).toContain(`'sha256-${sha256("window.dataLayer = [];")}'`)
    expect(s.policyString).not.toContain("'unsafe-inline'")
    expect(s.policyString).toContain("object-src 'none'")
    expect(s.policyString).toContain("base-uri 'self'")
    expect(s.policyString).toContain("frame-ancestors 'none'")
    expect(s.reportOnlyString).toBe(s.policyString)
    expect(s.notes.join("\n")).toMatch(/javascript: URLs/)
    expect(violations(s.policyString, pages, ORIGIN)).toEqual([])
    // the same check catches what the weak policy of a stricter site would block
    expect(violations("default-src 'self'", pages, ORIGIN).length).toBeGreaterThan(5)
  })

  const hostArb = fc.constantFrom(
    "site.example",
    "cdn.example",
    "img.example",
    "a.b.example",
    "x.example:8443"
  )
  const directiveArb = fc.constantFrom<FetchDirective>(
    "script-src",
    "style-src",
    "img-src",
    "font-src",
    "frame-src",
    "media-src",
    "connect-src",
    "form-action",
    "manifest-src"
  )
  const resourceArb = fc.oneof(
    fc.record({
      directive: directiveArb,
      url: fc
        .tuple(fc.constantFrom("https", "http", "wss"), hostArb, fc.webPath())
        .map(([s, h, p]) => new URL(`${s}://${h}${p}`).href)
    }),
    fc.record({ directive: directiveArb, url: fc.constantFrom("data:", "blob:") })
  )
  const extractArb: fc.Arbitrary<PageExtract> = fc.record({
    links: fc.constant([]),
    resources: fc.array(resourceArb, { maxLength: 12 }),
    inlineScripts: fc.array(fc.string(), { maxLength: 3 }),
    inlineStyles: fc.array(fc.string(), { maxLength: 3 }),
    eventHandlers: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
    styleAttributes: fc.array(fc.string({ minLength: 1 }), { maxLength: 2 }),
    javascriptUrls: fc.constant(0),
    metaCsp: fc.constant([]),
    baseHref: fc.option(fc.constant(`${ORIGIN}/`), { nil: null })
  })
  const pagesArb = fc.array(
    extractArb.map((extract): CrawledPage => ({
      url: `${ORIGIN}/`,
      status: 200,
      cspHeader: null,
      cspReportOnlyHeader: null,
      extract
    })),
    { minLength: 1, maxLength: 4 }
  )

  it("property: the synthesised policy never blocks anything the crawl saw", () => {
    fc.assert(
      fc.property(pagesArb, (pages) => {
        expect(violations(synthesise(pages, ORIGIN).policyString, pages, ORIGIN)).toEqual([])
      }),
      { numRuns: runs(300) }
    )
  })

  it("property: a load from an origin the crawl never saw is reported as a violation", () => {
    fc.assert(
      fc.property(pagesArb, directiveArb, (pages, directive) => {
        const policy = synthesise(pages, ORIGIN).policyString
        const unseen: CrawledPage = {
          ...pages[0]!,
          extract: { ...pages[0]!.extract, resources: [{ directive, url: "https://never-seen.example/x" }] }
        }
        expect(violations(policy, [unseen], ORIGIN)).toHaveLength(1)
      })
    )
  })

  it("property: analyseCrawl is total and its result is what the schema serves", () => {
    fc.assert(
      fc.property(pagesArb, fc.option(fc.string(), { nil: null }), fc.boolean(), (pages, header, strict) => {
        const withHeader = pages.map((p, i) => (i === 0 ? { ...p, cspHeader: header } : p))
        const r = analyseCrawl(
          {
            startUrl: `${ORIGIN}/`,
            origin: ORIGIN,
            pages: withHeader,
            stylesheets: [],
            pagesFailed: 0,
            failures: [],
            truncated: false,
            robotsDisallowed: 0,
            startError: null,
            elapsedMs: 1
          },
          strict,
          new Date(0)
        )
        expect(Schema.is(CspScanResult)(r)).toBe(true)
        expect(r.pagesCrawled).toBe(pages.length)
        expect(r.synthesis.unresolvedViolations).toBe(0)
      }),
      { numRuns: runs(200) }
    )
  })
})
