/** The one reading of a page's policy that /csp/scan and /security-headers/analyze share. */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { metaPolicies } from "../../../src/checks/csp/CspExtract.ts"
import { PageCsp, readPageCsp } from "../../../src/checks/csp/PagePolicy.ts"

describe("readPageCsp", () => {
  it("names what is enforced and what is only reported", () => {
    expect(readPageCsp({ header: null, reportOnlyHeader: "default-src 'self'", meta: [] })).toEqual({
      source: "report-only-header",
      policy: "default-src 'self'",
      reportOnlyPolicy: "default-src 'self'",
      enforcedPolicy: null,
      rating: "absent",
      ratingIssues: ["no policy is enforced"],
      headerPolicy: null,
      metaPolicy: null,
      metaIgnored: [],
      notes: [
        "Only Content-Security-Policy-Report-Only is sent: browsers report violations and block nothing. No policy is enforced."
      ]
    })
    const both = readPageCsp({ header: "a 'none'", reportOnlyHeader: "b 'none'", meta: [] })
    expect(both).toMatchObject({ source: "header", policy: "a 'none'", enforcedPolicy: "a 'none'" })
    expect(both.notes.join(" ")).toMatch(/reported only/)
  })

  it("a meta policy: enforced, with the directives browsers drop there (HTML 4.2.5.3)", () => {
    const r = readPageCsp({
      header: null,
      reportOnlyHeader: null,
      meta: ["default-src 'self'; frame-ancestors 'none'; report-uri /r", "sandbox"]
    })
    expect(r.source).toBe("meta")
    expect(r.enforcedPolicy).toBe("default-src 'self'; frame-ancestors 'none'; report-uri /r, sandbox")
    expect(r.metaIgnored).toEqual(["frame-ancestors", "report-uri", "sandbox"])
    expect(r.notes.join(" ")).toMatch(/covers only what the page loads after the element/)
  })

  it("no page, or nothing on it: none", () => {
    expect(readPageCsp(undefined)).toMatchObject({ source: "none", policy: null, enforcedPolicy: null })
    expect(
      readPageCsp({ header: " ", reportOnlyHeader: null, meta: [""], bodyTruncated: true }).notes.join()
    ).toMatch(/part of the page read/)
  })

  it("no field contradicts another (property)", () => {
    const policy = fc.option(fc.constantFrom("default-src 'self'", "script-src *", "", "sandbox"), {
      nil: null
    })
    fc.assert(
      fc.property(
        policy,
        policy,
        fc.array(fc.constantFrom("img-src 'none'", "frame-ancestors 'none'", ""), { maxLength: 3 }),
        (header, reportOnlyHeader, meta) => {
          const r = readPageCsp({ header, reportOnlyHeader, meta })
          expect(Schema.is(PageCsp)(r)).toBe(true)
          expect(r.policy === null).toBe(r.source === "none")
          expect(r.enforcedPolicy === null).toBe(r.source === "none" || r.source === "report-only-header")
          if (r.source === "report-only-header") expect(r.policy).toBe(r.reportOnlyPolicy)
          if (r.source === "header") expect(r.policy).toBe(r.headerPolicy)
          if (r.source === "meta") expect(r.policy).toBe(r.metaPolicy)
          expect(r.notes.length).toBeGreaterThan(0)
        }
      )
    )
  })
})

describe("metaPolicies", () => {
  it("reads policy meta elements of the head only (HTML 4.2.5.3)", () => {
    const html = `<html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'">
<meta http-equiv="content-security-policy-report-only" content="img-src 'none'">
<meta http-equiv="Content-Security-Policy" content="">
</head><body><meta http-equiv="Content-Security-Policy" content="script-src *"></body></html>`
    expect(metaPolicies(html)).toEqual(["default-src 'self'"])
    expect(metaPolicies("")).toEqual([])
  })
})
