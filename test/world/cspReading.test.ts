/**
 * One reading of a page's policy across endpoints: `GET /security-headers/analyze`
 * (`csp`) and `POST /csp/scan` (`currentCsp`) report the same policy and source for the world's
 * CSP sites, through the app's HTTP interface.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const META = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'"
const REPORT_ONLY = "default-src 'self'; script-src 'self'; object-src 'none'; report-uri /csp-report"

const both = (domain: string) =>
  Effect.gen(function* () {
    const headers = yield* getJson(`/api/security-headers/analyze?domain=${domain}`)
    const scan = yield* call("POST", "/api/csp/scan", { url: domain })
    expect(scan.status).toBe(200)
    return { headers, scan: scan.json }
  })

describe("CSP read once, reported alike by both endpoints", () => {
  layer(testApp(worldEnv()), { timeout: 90_000, excludeTestServices: true })((it) => {
    it.effect("csp-meta.com: the meta policy, enforced, from source meta, in both", () =>
      Effect.gen(function* () {
        const { headers, scan } = yield* both("csp-meta.com")
        expect(scan.currentCsp).toMatchObject({ source: "meta", policy: META, enforcedPolicy: META })
        expect(headers.csp).toEqual(scan.currentCsp)
        // One CSP Level 3 reading: the rating both report is the headers entry's too.
        expect(scan.currentCsp).toMatchObject({ rating: "good", ratingIssues: [] })
        // the headers analysis no longer calls the CSP missing, and says what a meta policy cannot do
        const entry = headers.current.find((e: any) => e.name === "Content-Security-Policy")
        expect(entry).toMatchObject({ present: false, status: "pass" })
        expect(entry.issues.join(" ")).toMatch(/meta http-equiv.*frame-ancestors, report-uri or sandbox/)
        expect(headers.missing).not.toContain("Content-Security-Policy")
        expect(headers.csp.notes.join(" ")).toMatch(/ignore frame-ancestors, report-uri and sandbox/)
      })
    )

    it.effect("csp-reportonly.com: nothing enforced, the Report-Only policy named as such, in both", () =>
      Effect.gen(function* () {
        const { headers, scan } = yield* both("csp-reportonly.com")
        expect(scan.currentCsp).toMatchObject({
          source: "report-only-header",
          policy: REPORT_ONLY,
          reportOnlyPolicy: REPORT_ONLY,
          enforcedPolicy: null,
          headerPolicy: null,
          metaPolicy: null
        })
        expect(headers.csp).toEqual(scan.currentCsp)
        expect(headers.missing).toContain("Content-Security-Policy")
        expect(scan.findings.map((f: any) => f.id)).toContain("report-only")
      })
    )

    it.effect("perfect.com: the header's policy, in both", () =>
      Effect.gen(function* () {
        const { headers, scan } = yield* both("perfect.com")
        expect(scan.currentCsp).toMatchObject({ source: "header", metaPolicy: null, reportOnlyPolicy: null })
        expect(headers.csp).toEqual(scan.currentCsp)
      })
    )
  })
})
