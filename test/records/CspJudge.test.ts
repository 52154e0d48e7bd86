/**
 * The one CSP reading (CSP Level 3) against the reference tools' own test vectors: the MDN HTTP
 * Observatory's `test/csp.test.js` (mdn/mdn-http-observatory: its "unsafe inline" policies fail,
 * its "no unsafe", "default-src 'none'" and "strict dynamic" policies pass) and Google
 * csp_evaluator's CSP3 reading (a nonce or hash cancels 'unsafe-inline', 'strict-dynamic' host
 * sources). The CSP scan's findings (csp_evaluator plus our directive rules) and the
 * security-headers rating must agree on every vector: a HIGH script or plugin finding exactly
 * when the rating is `unsafe`.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { findings } from "../../src/checks/csp/CspAnalyse.ts"
import { judgeCsp } from "../../src/checks/headers/Judges.ts"
import { rateCsp, readCsp } from "../../src/records/CspJudge.ts"

/** Observatory: CspImplementedWithUnsafeInline (a failure), as listed in its tests. */
const OBSERVATORY_UNSAFE = [
  "script-src 'unsafe-inline'",
  "script-src data:",
  "script-src http:",
  "script-src ftp:",
  "default-src 'unsafe-inline'",
  "default-src 'UNSAFE-INLINE'",
  "upgrade-insecure-requests",
  "script-src 'none'",
  "script-src https:",
  "script-src https://mozilla.org https:",
  "default-src https://mozilla.org https:",
  "default-src 'none'; script-src *",
  "default-src *; script-src *; object-src 'none'",
  "default-src 'none'; script-src 'none'; object-src *",
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'",
  "default-src 'none'; script-src 'unsafe-inline' http:",
  "object-src https:; script-src 'none'",
  // "insecure scheme broad and unsafe"
  "default-src 'none'; script-src https://*"
]

/** Observatory: CspImplementedWithNoUnsafe / ...DefaultSrcNone / strict dynamic (a pass). */
const OBSERVATORY_PASS = [
  "default-src https://mozilla.org",
  "default-src https://mozilla.org;;; ;;;script-src 'none'",
  "object-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
  "object-src 'none'; script-src 'strict-dynamic' 'nonce-abc' 'unsafe-inline'; style-src 'none'",
  "object-src 'none'; style-src 'self';script-src 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='",
  "object-src 'none'; style-src 'self'; script-src 'unsafe-inline' 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='",
  "object-src 'none'; script-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'; style-src 'none'",
  "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123' 'unsafe-inline'",
  "default-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
  "default-src 'none'; object-src https://mozilla.org",
  "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123'",
  "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123'",
  "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' https://*",
  "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' 'unsafe-inline'",
  // "unsafe inline in style src only": a pass, styles are not scripts
  "object-src 'none'; script-src 'none'; style-src 'unsafe-inline'",
  "default-src 'none'; script-src https://mozilla.org; style-src 'unsafe-inline'",
  "default-src 'none'; style-src *"
]

/** csp_evaluator's HIGH findings about scripts and plugins, as the CSP scan reports them. */
const scanHigh = (policy: string) =>
  findings({ source: "header", policy }, false).filter(
    (f) => f.severity === "high" && ["script-src", "object-src", "default-src"].includes(f.directive)
  )

describe("the CSP Level 3 reading", () => {
  for (const policy of OBSERVATORY_UNSAFE)
    it(`fails what the Observatory fails: ${policy}`, () => {
      expect(rateCsp(policy).rating).toBe("unsafe")
      expect(judgeCsp(policy)).toMatchObject({ status: "missing", rating: "unsafe" })
      expect(scanHigh(policy)).not.toEqual([])
    })

  for (const policy of OBSERVATORY_PASS)
    it(`passes what the Observatory passes: ${policy}`, () => {
      expect(rateCsp(policy).rating).not.toBe("unsafe")
      expect(judgeCsp(policy).status).toBe("pass")
      expect(scanHigh(policy)).toEqual([])
    })

  it("reads the recommended backward-compatible nonce pattern as no HIGH finding", () => {
    // csp_evaluator's strict-CSP recommendation (and web.dev's "strict CSP"): older browsers fall
    // back to 'unsafe-inline' https:, CSP3 browsers honour only the nonce and 'strict-dynamic'.
    const policy =
      "script-src 'nonce-r4nd0mr4nd0mr4nd0m' 'unsafe-inline' 'strict-dynamic' https: http:; object-src 'none'; base-uri 'none'"
    expect(rateCsp(policy)).toEqual({ rating: "good", issues: [] })
    expect(findings({ source: "header", policy }, false).filter((f) => f.severity === "high")).toEqual([])
  })

  it("judges object-src by its values: 'none' good, hosts weak, any host or data: unsafe", () => {
    const base = "default-src 'none'; script-src 'self'; base-uri 'none'"
    expect(rateCsp(`${base}; object-src 'none'`).rating).toBe("good")
    expect(rateCsp(`${base}; object-src https://plugins.example`).rating).toBe("weak")
    for (const open of ["*", "data:", "https:", "https://*"])
      expect(rateCsp(`${base}; object-src ${open}`).rating, open).toBe("unsafe")
  })

  it("reads a scheme with a host wildcard as any host of that scheme", () => {
    for (const any of ["https://*", "*", "https:", "http://*:443", "https://*/js/"])
      expect(readCsp(`default-src 'none'; script-src ${any}`)!.unrestricted.join(" "), any).toMatch(
        /any host/
      )
    expect(readCsp("default-src 'none'; script-src https://*.example.com")!.unrestricted).toEqual([])
  })

  it("is unsafe only when every enforced policy is (CSP3 §8.1)", () => {
    expect(rateCsp("script-src *, default-src 'none'").rating).not.toBe("unsafe")
    expect(rateCsp("script-src *, script-src 'unsafe-inline'").rating).toBe("unsafe")
  })

  it("never throws, and the scan and the headers rating agree on generated policies", () => {
    const source = fc.constantFrom(
      "'self'",
      "'none'",
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'strict-dynamic'",
      "'nonce-abcdefghijklmnop'",
      "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='",
      "*",
      "https:",
      "data:",
      "https://*",
      "https://cdn.example.com"
    )
    const directive = fc
      .tuple(
        fc.constantFrom("default-src", "script-src", "object-src", "base-uri", "style-src"),
        fc.array(source)
      )
      .map(([name, values]) => [name, ...values].join(" "))
    fc.assert(
      fc.property(fc.array(directive, { minLength: 1, maxLength: 5 }), (ds) => {
        const policy = ds.join("; ")
        const rating = rateCsp(policy).rating
        expect(judgeCsp(policy).rating).toBe(rating)
      })
    )
  })
})
