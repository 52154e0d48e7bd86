/**
 * The NCSC-NL 2025 parts of the HTTPS transport analysis (WebTlsAnalyse.ts over
 * kernel/TlsServerRating.ts): Extended Master Secret on TLS 1.2 rated and scored, OCSP stapling
 * shown only where the certificate names a responder and never scored, and the guideline named.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { about } from "../../../src/checks/web-tls/About.ts"
import { analyse } from "../../../src/checks/web-tls/WebTlsAnalyse.ts"
import type { WebTlsResult } from "../../../src/checks/web-tls/WebTlsResult.ts"
import { exampleTlsScan } from "../../../src/kernel/examples/ExampleTlsScans.ts"
import { NOW } from "../../../src/kernel/examples/ExampleZone.ts"
import type { TlsScanResult } from "../../../src/net/TlsScan.ts"
import { TLS_GUIDELINE, TLS_RATINGS } from "../../../src/records/TlsRating.ts"
import { runs } from "../../support/runs.ts"

const DOMAIN = "example.com"

const scan = (patch: Partial<TlsScanResult> = {}): TlsScanResult => ({
  ...exampleTlsScan(DOMAIN, "192.0.2.80"),
  ...patch
})

const result = (scans: ReadonlyArray<TlsScanResult>): WebTlsResult =>
  analyse(
    { domain: DOMAIN, hosts: [{ host: DOMAIN, lookup: "answer", addresses: ["192.0.2.80"] }], scans },
    NOW
  )

const rule = (r: WebTlsResult) =>
  about.rules.judge({ checks: { "web-tls": { status: "done", reason: null, result: r } } })[0]!.verdict

const rank = (r: string | null) => (r === null ? -1 : TLS_RATINGS.indexOf(r as (typeof TLS_RATINGS)[number]))

describe("Extended Master Secret (RFC 7627)", () => {
  it("a TLS 1.2 server that negotiates it passes, one that does not fails with its own issue", () => {
    const on = result([scan()])
    expect(on.guideline).toBe(TLS_GUIDELINE)
    expect(on.servers[0]).toMatchObject({ extendedMasterSecret: true, extendedMasterSecretRating: "good" })
    expect(rule(on).status).toBe("pass")
    const off = result([scan({ extendedMasterSecret: false })])
    expect(off.servers[0]).toMatchObject({
      extendedMasterSecret: false,
      extendedMasterSecretRating: "insufficient",
      rating: "insufficient",
      status: "fail"
    })
    expect(off.servers[0]!.issues.join("\n")).toMatch(/without Extended Master Secret/)
    expect(rule(off)).toMatchObject({ status: "fail", issues: ["web_tls_ems_missing"] })
  })

  it("is not applicable where TLS 1.2 is refused, or in a scan made before it was asked", () => {
    const modern = scan({
      versions: { TLSv1: "refused", "TLSv1.1": "refused", "TLSv1.2": "refused", "TLSv1.3": "accepted" },
      suites: exampleTlsScan(DOMAIN, "192.0.2.80").suites.filter((s) => s.version === "TLSv1.3"),
      extendedMasterSecret: null
    })
    expect(result([modern]).servers[0]).toMatchObject({ extendedMasterSecretRating: null, rating: "good" })
    const { extendedMasterSecret: _, ...older } = scan()
    expect(result([older]).servers[0]).toMatchObject({ extendedMasterSecret: null, rating: "sufficient" })
  })

  it("never makes a server better, and fails it exactly when TLS 1.2 lacks it", () => {
    fc.assert(
      fc.property(fc.constantFrom(true, false, null), (ems) => {
        const base = result([scan({ extendedMasterSecret: null })]).servers[0]!
        const s = result([scan({ extendedMasterSecret: ems })]).servers[0]!
        expect(rank(s.rating)).toBeGreaterThanOrEqual(rank(base.rating))
        expect(s.status === "fail").toBe(ems === false)
      }),
      { numRuns: runs(20) }
    )
  })
})

describe("OCSP stapling", () => {
  it("is rated only where the certificate names a responder, and never changes the server's rating", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.option(fc.boolean(), { nil: undefined }), (stapled, responder) => {
        const { ocspResponder: _, ...certificate } = scan().certificate!
        const s = result([
          scan({
            ocspStapled: stapled,
            certificate: responder === undefined ? certificate : { ...certificate, ocspResponder: responder }
          })
        ]).servers[0]!
        expect(s.ocspStaplingRating).toBe(responder === true ? (stapled ? "good" : "sufficient") : null)
        expect(s.rating).toBe("sufficient")
      }),
      { numRuns: runs(20) }
    )
  })
})
