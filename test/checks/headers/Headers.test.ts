import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import * as fc from "fast-check"
import {
  analyse,
  Headers,
  type HeadersGathered,
  HeadersResult,
  INSPECTED
} from "../../../src/checks/headers/Headers.ts"
import { metaReferrer } from "../../../src/checks/csp/CspExtract.ts"
import { WebError, type WebErrorReason } from "../../../src/net/Web.ts"
import { runFake } from "../facts.ts"
import { domain } from "../../support/domain.ts"

const NOW = new Date("2026-01-01T00:00:00Z")

const PERFECT = {
  "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
  "content-security-policy": "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), geolocation=(self)"
}

const response = (
  headers: Record<string, string>,
  extra: Partial<HeadersGathered> = {}
): HeadersGathered => ({
  kind: "response",
  status: 200,
  headers,
  finalUrl: "https://example.com/",
  redirects: 0,
  tlsError: null,
  metaCsp: [],
  bodyTruncated: false,
  ...(extra as object)
})
const failed = (reason: WebErrorReason, message = "x"): HeadersGathered => ({
  kind: "failed",
  reason,
  message
})
const entry = (r: ReturnType<typeof analyse>, name: string) => r.current.find((e) => e.name === name)!

describe("Headers.analyse", () => {
  it("passes a site with all six strong headers", () => {
    const r = analyse("example.com", response(PERFECT), NOW)
    expect(r.current.map((e) => e.name)).toEqual([...INSPECTED])
    expect(r.current.every((e) => e.status === "pass" && e.rating === "good" && e.present)).toBe(true)
    expect(r.missing).toEqual([])
    expect(r.httpsAvailable).toBe(true)
    expect(r.headerFetchTimedOut).toBe(false)
    expect(r.note).toBeUndefined()
    expect(r.scannedAt).toBe("2026-01-01T00:00:00.000Z")
    // good values are kept in the recommendation
    expect(r.recommended.csp).toBe(PERFECT["content-security-policy"])
    expect(Object.keys(r.outputs).sort()).toEqual([
      "apache",
      "caddy",
      "cloudflare",
      "headers",
      "nginx",
      "raw"
    ])
  })

  it("reports every header missing when none is sent", () => {
    const r = analyse("example.com", response({}), NOW)
    expect(r.missing).toEqual([...INSPECTED])
    expect(r.current.every((e) => e.status === "missing" && !e.present && e.value === null)).toBe(true)
    expect(r.recommended.hsts).toBe("max-age=31536000; includeSubDomains")
    expect(r.recommended.csp).toContain("default-src 'self'")
  })

  it("on a timeout: headerFetchTimedOut, every status unknown, nothing missing, a note", () => {
    const r = analyse("example.com", failed("timeout", "no complete response within 10000 ms"), NOW)
    expect(r.headerFetchTimedOut).toBe(true)
    expect(r.current.map((e) => e.status)).toEqual(INSPECTED.map(() => "unknown"))
    expect(r.missing).toEqual([])
    expect(r.note).toMatch(/could not be verified/)
    expect(r.recommended.hsts).not.toBeNull()
  })

  it("a DNS failure is unknown too, but not a timeout", () => {
    const r = analyse("example.com", failed("dns", "SERVFAIL"), NOW)
    expect(r.headerFetchTimedOut).toBe(false)
    expect(r.note).toBeUndefined()
    expect(r.fetchError).toContain("SERVFAIL")
    expect(r.current.every((e) => e.status === "unknown")).toBe(true)
    expect(r.missing).toEqual([])
  })

  it.each(["connect", "no-address"] as const)(
    "httpsAvailable is false when HTTPS is absent (%s)",
    (reason) => {
      const r = analyse("example.com", failed(reason, "ECONNREFUSED"), NOW)
      expect(r.httpsAvailable).toBe(false)
      expect(r.headerFetchTimedOut).toBe(false)
    }
  )

  it("judges weak and ineffective values", () => {
    const r = analyse(
      "example.com",
      response({
        "strict-transport-security": "max-age=300",
        "content-security-policy-report-only": "default-src 'self'",
        "x-frame-options": "ALLOW-FROM https://a.example",
        "x-content-type-options": "nosniff",
        "referrer-policy": "unsafe-url",
        "permissions-policy": "camera=()"
      }),
      NOW
    )
    expect(entry(r, "Strict-Transport-Security")).toMatchObject({ status: "pass", rating: "weak" })
    expect(entry(r, "Strict-Transport-Security").issues.join()).toMatch(/includeSubDomains/)
    expect(entry(r, "Content-Security-Policy")).toMatchObject({ status: "missing", present: false })
    expect(entry(r, "Content-Security-Policy").issues.join()).toMatch(/Report-Only/)
    expect(entry(r, "X-Frame-Options")).toMatchObject({
      status: "missing",
      present: true,
      rating: "ineffective"
    })
    // unsafe-url is a failure, as the HTTP Observatory judges it (referrer-policy-unsafe)
    expect(entry(r, "Referrer-Policy")).toMatchObject({ status: "missing", present: true, rating: "unsafe" })
    // Missing means not sent: the ignored X-Frame-Options and the unsafe Referrer-Policy are sent,
    // and judged in their entries.
    expect(r.missing).toEqual(["Content-Security-Policy"])
  })

  it("says when the headers come from another host after a redirect", () => {
    const r = analyse("example.com", response(PERFECT, { finalUrl: "https://www.example.com/" }), NOW)
    expect(r.warnings.join("\n")).toMatch(/redirects to https:\/\/www\.example\.com\//)
    expect(analyse("example.com", response(PERFECT), NOW).warnings).toEqual([])
  })

  it("HSTS max-age=0 is present but ineffective", () => {
    const r = analyse("example.com", response({ "strict-transport-security": "max-age=0" }), NOW)
    expect(entry(r, "Strict-Transport-Security")).toMatchObject({ present: true, status: "missing" })
  })

  it("CSP frame-ancestors covers a missing X-Frame-Options", () => {
    const r = analyse("example.com", response({ "content-security-policy": "frame-ancestors 'self'" }), NOW)
    expect(entry(r, "X-Frame-Options")).toMatchObject({ present: false, status: "pass" })
    // no script-src or default-src: scripts are not restricted, so the policy is not a pass
    expect(entry(r, "Content-Security-Policy")).toMatchObject({ status: "missing", rating: "unsafe" })
  })

  it("CSPs that let scripts run are not a pass: unsafe-inline, any host; unsafe-eval is weak", () => {
    const csp = (value: string) =>
      entry(analyse("e.com", response({ "content-security-policy": value }), NOW), "Content-Security-Policy")
    const tail = "; object-src 'none'; base-uri 'none'"
    const both = csp("script-src * 'unsafe-inline'")
    expect(both).toMatchObject({ status: "missing", present: true, rating: "unsafe" })
    expect(both.issues.join("\n")).toMatch(/unsafe-inline/)
    expect(both.issues.join("\n")).toMatch(/any host/)
    expect(csp(`default-src 'self'; script-src 'self' 'unsafe-inline'${tail}`)).toMatchObject({
      status: "missing",
      rating: "unsafe"
    })
    expect(csp(`default-src 'self'; script-src https:${tail}`)).toMatchObject({
      status: "missing",
      rating: "unsafe"
    })
    // a nonce or hash makes browsers ignore 'unsafe-inline' (CSP3 §6.7.3.2): a pass
    expect(csp(`script-src 'self' 'unsafe-inline' 'nonce-abc'${tail}`)).toMatchObject({
      status: "pass",
      rating: "good"
    })
    expect(csp(`script-src 'self' 'unsafe-eval'${tail}`)).toMatchObject({ status: "pass", rating: "weak" })
    // two policies are both enforced: one that restricts scripts is enough
    expect(csp(`script-src *${tail}, script-src 'self'${tail}`)).toMatchObject({ status: "pass" })
  })

  it("Referrer-Policy: unsafe-url, no-referrer-when-downgrade, origin and origin-when-cross-origin fail", () => {
    const referrer = (value: string) =>
      entry(analyse("e.com", response({ "referrer-policy": value }), NOW), "Referrer-Policy")
    for (const v of ["unsafe-url", "origin", "origin-when-cross-origin", "no-referrer, origin"])
      expect(referrer(v)).toMatchObject({ status: "missing", rating: "unsafe" })
    // full URLs to every HTTPS site: more than `origin` gives away (the HTTP Observatory 1.4.8
    // fails it too, referrer-policy-unsafe; scripts/crosscheck/header-values.mjs)
    expect(referrer("no-referrer-when-downgrade")).toMatchObject({ status: "missing", rating: "unsafe" })
    expect(referrer("origin, strict-origin-when-cross-origin")).toMatchObject({
      status: "pass",
      rating: "good"
    })
  })

  it("HSTS sent twice is reported (browsers use the first); a repeated directive is invalid", () => {
    const hsts = (value: string) =>
      entry(
        analyse("e.com", response({ "strict-transport-security": value }), NOW),
        "Strict-Transport-Security"
      )
    const good = "max-age=31536000; includeSubDomains"
    expect(hsts(good)).toMatchObject({ status: "pass", rating: "good" })
    // two header fields arrive joined by ", " (RFC 9110 5.3)
    const twice = hsts(`${good}, ${good}`)
    expect(twice).toMatchObject({ status: "pass", rating: "weak" })
    expect(twice.issues.join()).toMatch(/sent 2 times/)
    // the first field is the one browsers apply (RFC 6797 8.1)
    expect(hsts(`max-age=300, ${good}`).issues.join()).toMatch(/below one year/)
    expect(hsts("max-age=31536000; max-age=63072000; includeSubDomains")).toMatchObject({
      status: "missing",
      rating: "ineffective"
    })
  })

  it("is total: arbitrary header values never throw and statuses stay in the spec's set", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...INSPECTED.map((n) => n.toLowerCase())), fc.string()),
        fc.integer({ min: 100, max: 599 }),
        (headers, status) => {
          const r = analyse("example.com", response(headers, { status }), NOW)
          for (const e of r.current) expect(["pass", "missing", "unknown"]).toContain(e.status)
          expect(r.missing.every((m) => r.current.find((e) => e.name === m)?.status === "missing")).toBe(true)
        }
      )
    )
  })
})

describe("Headers.analyse: the page's CSP, read as POST /csp/scan reads it", () => {
  const META = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'"

  it("a meta policy is enforced: the CSP entry passes on it and says where it comes from", () => {
    const r = analyse("example.com", response({}, { metaCsp: [META] }), NOW)
    const csp = entry(r, "Content-Security-Policy")
    expect(csp).toMatchObject({ present: false, value: null, status: "pass", rating: "good" })
    expect(csp.issues[0]).toMatch(
      /<meta http-equiv> element .*cannot set frame-ancestors, report-uri or sandbox/
    )
    expect(r.missing).not.toContain("Content-Security-Policy")
    expect(r.csp).toMatchObject({ source: "meta", policy: META, enforcedPolicy: META, metaPolicy: META })
    expect(r.csp?.notes.join(" ")).toMatch(/ignore frame-ancestors, report-uri and sandbox/)
    // frame-ancestors in a meta policy is ignored, so it does not stand in for X-Frame-Options
    const framed = analyse("example.com", response({}, { metaCsp: [`${META}; frame-ancestors 'none'`] }), NOW)
    expect(entry(framed, "X-Frame-Options").status).toBe("missing")
    expect(framed.csp?.metaIgnored).toEqual(["frame-ancestors"])
    expect(framed.warnings.join("\n")).toMatch(/meta element's frame-ancestors is ignored/)
  })

  it("a weak or unsafe meta policy is judged as the same header would be", () => {
    const r = analyse("example.com", response({}, { metaCsp: ["script-src * 'unsafe-inline'"] }), NOW)
    expect(entry(r, "Content-Security-Policy")).toMatchObject({ status: "missing", rating: "unsafe" })
    const weak = analyse(
      "example.com",
      response({}, { metaCsp: ["script-src 'self' 'unsafe-eval'; object-src 'none'"] }),
      NOW
    )
    expect(entry(weak, "Content-Security-Policy")).toMatchObject({ status: "pass", rating: "weak" })
  })

  it("Report-Only alone: nothing enforced, the report-only policy named", () => {
    const ro = "default-src 'self'; report-uri /r"
    const r = analyse("example.com", response({ "content-security-policy-report-only": ro }), NOW)
    expect(entry(r, "Content-Security-Policy")).toMatchObject({ status: "missing", rating: "absent" })
    expect(r.csp).toMatchObject({
      source: "report-only-header",
      policy: ro,
      reportOnlyPolicy: ro,
      enforcedPolicy: null
    })
  })

  it("a header and a meta policy are both enforced; the header is what the entry judges", () => {
    const r = analyse("example.com", response(PERFECT, { metaCsp: [META] }), NOW)
    expect(entry(r, "Content-Security-Policy").value).toBe(PERFECT["content-security-policy"])
    expect(r.csp).toMatchObject({
      source: "header",
      headerPolicy: PERFECT["content-security-policy"],
      metaPolicy: META,
      enforcedPolicy: `${PERFECT["content-security-policy"]}, ${META}`
    })
  })

  it("no policy anywhere: csp says so; a page not read has no csp", () => {
    expect(analyse("example.com", response({}), NOW).csp).toMatchObject({
      source: "none",
      enforcedPolicy: null
    })
    expect(analyse("example.com", failed("timeout"), NOW).csp).toBeUndefined()
  })
})

describe("Headers.analyse over any gathered outcome (property)", () => {
  const reasons: ReadonlyArray<WebErrorReason> = [
    "invalid-url",
    "refused-address",
    "dns",
    "no-address",
    "timeout",
    "connect",
    "tls",
    "too-large",
    "http",
    "redirect"
  ]
  const gatheredArb: fc.Arbitrary<HeadersGathered> = fc.oneof(
    fc.record({
      kind: fc.constant("response" as const),
      status: fc.integer({ min: 100, max: 599 }),
      headers: fc.dictionary(
        fc.constantFrom(...INSPECTED.map((n) => n.toLowerCase()), "content-security-policy-report-only"),
        fc.string()
      ),
      finalUrl: fc.oneof(fc.webUrl(), fc.string()),
      redirects: fc.nat(5),
      tlsError: fc.option(fc.string(), { nil: null }),
      metaCsp: fc.array(fc.string(), { maxLength: 2 }),
      bodyTruncated: fc.boolean()
    }),
    fc.record(
      {
        kind: fc.constant("failed" as const),
        reason: fc.constantFrom(...reasons),
        message: fc.string(),
        plainHttp: fc.boolean()
      },
      { requiredKeys: ["kind", "reason", "message"] }
    )
  )
  it("never throws, matches its schema, and never calls an unread header missing", () =>
    fc.assert(
      fc.property(gatheredArb, fc.date({ noInvalidDate: true }), (gathered, now) => {
        const r = Headers.analyse({ domain: domain("example.com"), gathered }, now)
        expect(Schema.is(HeadersResult)(r)).toBe(true)
        expect(r.current.map((e) => e.name)).toEqual([...INSPECTED])
        expect(r.scannedAt).toBe(now.toISOString())
        if (r.current.some((e) => e.status === "unknown")) expect(r.missing).toEqual([])
        if (gathered.kind === "failed" && gathered.reason === "timeout")
          expect(r.current.every((e) => e.status === "unknown")).toBe(true)
      })
    ))
})

describe("the Headers check through Facts", () => {
  it.effect("fetches https://<domain>/ and judges the response", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Headers, "perfect.example", {
        web: (url) => {
          expect(url).toBe("https://perfect.example/")
          return { status: 200, headers: PERFECT }
        }
      })
      expect(r.missing).toEqual([])
      expect(r.statusCode).toBe(200)
    })
  )

  it.effect("reads headers behind an untrusted certificate, with httpsAvailable false", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Headers, "selfsigned.example", {
        web: (url, options) =>
          options.verifyTls === false
            ? {
                status: 200,
                headers: PERFECT,
                tls: {
                  authorized: false,
                  authorizationError: "DEPTH_ZERO_SELF_SIGNED_CERT",
                  protocol: "TLSv1.3",
                  cipher: null,
                  peerCertificate: null
                }
              }
            : new WebError({ url, reason: "tls", message: "self-signed certificate" })
      })
      expect(r.httpsAvailable).toBe(false)
      expect(r.missing).toEqual([])
      expect(r.warnings.join()).toMatch(/not trusted/)
      // the score reads this field, not the wording of an error
      expect(r.certificateError).toBe("DEPTH_ZERO_SELF_SIGNED_CERT")
    })
  )

  it.effect("maps a Web timeout to the spec's timeout semantics", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Headers, "slow.example", {
        web: (url) => new WebError({ url, reason: "timeout", message: "slow" })
      })
      expect(r.headerFetchTimedOut).toBe(true)
      expect(r.missing).toEqual([])
    })
  )

  it.effect("without HTTPS, probes plain HTTP and says so", () =>
    Effect.gen(function* () {
      const r = yield* runFake(Headers, "httponly.example", {
        web: (url) =>
          url.startsWith("https:")
            ? new WebError({ url, reason: "connect", message: "ECONNREFUSED" })
            : { status: 200 }
      })
      expect(r.httpsAvailable).toBe(false)
      expect(r.warnings.join("\n")).toMatch(/plain HTTP only/)
    })
  )

  it.effect("reads the meta policy from the home page's HTML, and only from HTML", () =>
    Effect.gen(function* () {
      const html = `<!doctype html><html><head><meta http-equiv="content-security-policy" content="default-src 'self'"></head><body></body></html>`
      const page = (contentType: string) =>
        runFake(Headers, "meta.example", {
          web: () => ({
            status: 200,
            headers: { "content-type": contentType },
            body: new TextEncoder().encode(html)
          })
        })
      expect((yield* page("text/html; charset=utf-8")).csp).toMatchObject({
        source: "meta",
        policy: "default-src 'self'"
      })
      expect((yield* page("text/plain")).csp?.source).toBe("none")
    })
  )

  it.effect("scannedAt is the clock's time, not the wall clock's", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW.getTime())
      const r = yield* runFake(Headers, "perfect.example", { web: () => ({ status: 200, headers: PERFECT }) })
      expect(r.scannedAt).toBe(NOW.toISOString())
    })
  )
})

describe('Headers.analyse: <meta name="referrer"> as browsers apply it', () => {
  it("reads the last valid meta policy, legacy names mapped (HTML standard metadata names)", () => {
    const page = (...contents: Array<string>) =>
      `<html><head>${contents.map((c) => `<meta name="referrer" content="${c}">`).join("")}</head><body></body></html>`
    expect(metaReferrer(page("no-referrer"))).toBe("no-referrer")
    expect(metaReferrer(page("never"))).toBe("no-referrer")
    expect(metaReferrer(page("always"))).toBe("unsafe-url")
    expect(metaReferrer(page("default"))).toBe("strict-origin-when-cross-origin")
    expect(metaReferrer(page("origin-when-crossorigin"))).toBe("origin-when-cross-origin")
    expect(metaReferrer(page("no-referrer", "unsafe-url"))).toBe("unsafe-url")
    expect(metaReferrer(page("unsafe-url", "bogus"))).toBe("unsafe-url")
    expect(metaReferrer(`<meta name="REFERRER" content=" Same-Origin ">`)).toBe("same-origin")
    expect(metaReferrer("<p>no meta</p>")).toBeNull()
  })

  it("counts the meta policy when there is no header, and over the header when both are sent", () => {
    // The Observatory's test_parse_http_equiv_headers_referrer1.html: a meta no-referrer over a
    // header unsafe-url passes; a safe header under an unsafe meta does not.
    const onlyMeta = analyse("example.com", response({}, { metaReferrer: "no-referrer" }), NOW)
    expect(entry(onlyMeta, "Referrer-Policy")).toMatchObject({
      status: "pass",
      rating: "good",
      present: false
    })
    const overridden = analyse(
      "example.com",
      response({ "referrer-policy": "unsafe-url" }, { metaReferrer: "no-referrer" }),
      NOW
    )
    expect(entry(overridden, "Referrer-Policy")).toMatchObject({
      status: "pass",
      rating: "good",
      present: true
    })
    const worse = analyse(
      "example.com",
      response({ "referrer-policy": "no-referrer" }, { metaReferrer: "unsafe-url" }),
      NOW
    )
    expect(entry(worse, "Referrer-Policy")).toMatchObject({ status: "missing", rating: "unsafe" })
    expect(entry(worse, "Referrer-Policy").issues[0]).toMatch(/overrides the header/)
  })
})
