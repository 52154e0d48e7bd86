import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import {
  allowsEventHandler,
  allowsInline,
  allowsUrl,
  effectiveDirective,
  matchesSource,
  parsePolicies,
  parsePolicy,
  serializePolicy
} from "../../src/records/CspPolicy.ts"
import { isAllowed, parseRobots } from "../../src/checks/csp/CspRobots.ts"

const self = new URL("https://site.example/")

describe("CSP source matching (CSP3 §6.7.2)", () => {
  it.each([
    ["'self'", "https://site.example/a.js", true],
    ["'self'", "https://other.example/a.js", false],
    ["'self'", "http://site.example/a.js", false],
    ["'self'", "wss://site.example/socket", true],
    ["*", "https://any.example/x", true],
    ["*", "data:", false],
    ["data:", "data:", true],
    ["https:", "https://cdn.example/x", true],
    ["http:", "https://cdn.example/x", true],
    ["https:", "http://cdn.example/x", false],
    ["cdn.example", "https://cdn.example/x.js", true],
    ["cdn.example", "http://cdn.example/x.js", false],
    ["https://cdn.example", "https://cdn.example/x.js", true],
    ["https://cdn.example", "https://cdn.example:8443/x.js", false],
    ["https://cdn.example:*", "https://cdn.example:8443/x.js", true],
    ["http://cdn.example", "https://cdn.example/x.js", true],
    ["*.example.org", "https://a.b.example.org/x", true],
    ["*.example.org", "https://example.org/x", false],
    ["https://cdn.example/js/", "https://cdn.example/js/app.js", true],
    ["https://cdn.example/js/", "https://cdn.example/css/app.css", false],
    ["https://cdn.example/js/app.js", "https://cdn.example/js/app.js", true],
    ["https://cdn.example/js/app.js", "https://cdn.example/js/other.js", false],
    ["'none'", "https://site.example/", false]
  ])("%s vs %s -> %s", (expr, url, expected) => {
    expect(matchesSource(expr, new URL(url), self)).toBe(expected)
  })

  it("applies fallbacks and 'none'", () => {
    const p = parsePolicy("default-src 'self'; img-src 'none'; frame-src https://f.example")
    expect(
      allowsUrl(effectiveDirective(p, "script-src-elem"), new URL("https://site.example/a.js"), self)
    ).toBe(true)
    expect(allowsUrl(effectiveDirective(p, "img-src"), new URL("https://site.example/a.png"), self)).toBe(
      false
    )
    expect(allowsUrl(effectiveDirective(p, "frame-src"), new URL("https://f.example/"), self)).toBe(true)
    expect(effectiveDirective(p, "form-action")).toBeUndefined()
  })

  it("inline rules: hashes, 'unsafe-inline' ignored beside hashes, 'unsafe-hashes' for attributes", () => {
    const withHash = parsePolicy("script-src 'sha256-abc' 'unsafe-inline'")[0]
    expect(allowsInline(withHash, "abc")).toBe(true)
    expect(allowsInline(withHash, "xyz")).toBe(false)
    expect(allowsInline(parsePolicy("script-src 'unsafe-inline'")[0], "xyz")).toBe(true)
    expect(allowsEventHandler(withHash, "abc")).toBe(false)
    expect(allowsEventHandler(parsePolicy("script-src 'unsafe-hashes' 'sha256-abc'")[0], "abc")).toBe(true)
  })

  it("parses and re-serialises policies; first directive wins; never throws", () => {
    expect(serializePolicy(parsePolicy(" default-src  'self' ;; script-src a b; default-src x"))).toBe(
      "default-src 'self'; script-src a b"
    )
    expect(parsePolicies("a b, c d")).toHaveLength(2)
    fc.assert(
      fc.property(fc.string(), fc.string(), (policy, url) => {
        const p = parsePolicy(policy)
        expect(parsePolicy(serializePolicy(p))).toEqual(p)
        try {
          const u = new URL(url)
          for (const d of p) allowsUrl(d, u, self)
        } catch {
          // not a URL
        }
      })
    )
  })
})

describe("robots.txt (RFC 9309)", () => {
  const robots = parseRobots(
    [
      "User-agent: other",
      "Disallow: /",
      "",
      "User-agent: *",
      "Disallow: /private/",
      "Allow: /private/open",
      "Disallow: /*.cgi$",
      "Disallow: /tmp"
    ].join("\n"),
    "domain-audit"
  )
  it.each([
    ["/", true],
    ["/private/x", false],
    ["/private/open/page", true],
    ["/run.cgi", false],
    ["/run.cgi?x", true],
    ["/tmpfile", false],
    ["/robots.txt", true]
  ])("%s -> %s", (path, allowed) => {
    expect(isAllowed(robots, path)).toBe(allowed)
  })
  it("uses our own group over *", () => {
    const r = parseRobots(
      "User-agent: *\nDisallow: /\n\nUser-agent: domain-audit\nDisallow: /no\n",
      "domain-audit"
    )
    expect(isAllowed(r, "/yes")).toBe(true)
    expect(isAllowed(r, "/no")).toBe(false)
  })
  it("never throws", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, path) => {
        isAllowed(parseRobots(text, "domain-audit"), path)
      })
    )
  })
})
