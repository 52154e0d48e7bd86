/**
 * The MX TLS scan in the smtp-tls result (SmtpTlsRating.ts) and the rule `security.mx.tls`
 * (Rules.ts): each rating to its status and points, a scan that did not run or did not complete
 * never rated, a result stored before the scan existed scored as it was, and totality (property).
 */
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { about } from "../../../src/checks/smtp-tls/About.ts"
import { analyse, type SmtpTlsInput, type SmtpTlsResult } from "../../../src/checks/smtp-tls/SmtpTls.ts"
import { rateMxTls } from "../../../src/checks/smtp-tls/SmtpTlsRating.ts"
import { blankScan, type TlsScanResult } from "../../../src/net/TlsScan.ts"
import { probe, tlsFacts } from "../fixtures.ts"

const NOW = new Date("2026-06-01T00:00:00Z")
const X25519 = { type: "ECDH", name: "X25519", size: 253 } as const

const scan = (over: Partial<TlsScanResult> = {}): TlsScanResult => ({
  ...blankScan("mx.example.com", "192.0.2.25", 25, "complete", null, NOW),
  handshakes: 14,
  versions: { TLSv1: "refused", "TLSv1.1": "refused", "TLSv1.2": "accepted", "TLSv1.3": "accepted" },
  suites: [
    { cipher: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", version: "TLSv1.2", keyExchange: X25519 },
    { cipher: "TLS_AES_256_GCM_SHA384", version: "TLSv1.3", keyExchange: X25519 }
  ],
  serverOrder: true,
  negotiated: { protocol: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384" },
  ...over
})

const legacy = () =>
  scan({
    versions: { TLSv1: "accepted", "TLSv1.1": "accepted", "TLSv1.2": "accepted", "TLSv1.3": "accepted" }
  })
const withNull = () =>
  scan({
    suites: [
      ...scan().suites,
      { cipher: "TLS_ECDHE_ECDSA_WITH_NULL_SHA", version: "TLSv1.2", keyExchange: X25519 }
    ]
  })

const input = (scans: ReadonlyArray<TlsScanResult | null>): SmtpTlsInput => {
  const probes = scans.map((_, i) => probe({ address: `192.0.2.${25 + i}`, tls: tlsFacts([]) }))
  return {
    domain: "example.com",
    mxStatus: "answer",
    mxRecords: [{ priority: 10, host: "mx.example.com" }],
    unresolved: [],
    probes,
    tlsScans: Object.fromEntries(
      scans.flatMap((s, i) => (s ? [[`${probes[i]!.host}|${probes[i]!.address}`, s]] : []))
    )
  }
}

const rule = (r: SmtpTlsResult) =>
  about.rules
    .judge({ checks: { "smtp-tls": { status: "done", reason: null, result: r } } })
    .find((x) => x.spec.id === "security.mx.tls")!.verdict

describe("rateMxTls", () => {
  it("rates a current configuration sufficient, with no issue", () => {
    const r = rateMxTls(scan(), "mx (192.0.2.25)", NOW)
    expect([r.view.rating, r.view.versionsRating, r.view.ciphersRating, r.status]).toEqual([
      "sufficient",
      "sufficient",
      "good",
      "pass"
    ])
    expect(r.view.handshakes).toBe(14)
    expect(r.issues).toEqual([])
  })

  it("warns on TLS 1.0/1.1 and fails a NULL suite", () => {
    const old = rateMxTls(legacy(), "mx", NOW)
    expect([old.view.rating, old.status]).toEqual(["phase-out", "warning"])
    expect(old.issues.join()).toMatch(/accepts TLSv1, TLSv1.1 \(phase out/)
    const weak = rateMxTls(withNull(), "mx", NOW)
    expect([weak.view.ciphersRating, weak.status]).toEqual(["insufficient", "fail"])
  })

  it("never rates a scan that could not connect, and says so", () => {
    const r = rateMxTls(blankScan("mx", "192.0.2.25", 25, "unknown", "banner: no answer"), "mx", NOW)
    expect([r.view.rating, r.status]).toEqual([null, "pass"])
    expect(r.issues.join()).toMatch(/could not be probed \(banner: no answer\)/)
  })
})

describe("security.mx.tls", () => {
  it("3 points for sufficient, 1 for phase-out, 0 for insufficient, with the issue ids", () => {
    expect(rule(analyse(input([scan(), scan()]), NOW))).toMatchObject({ status: "pass" })
    expect(rule(analyse(input([scan(), legacy()]), NOW))).toMatchObject({
      status: "partial",
      points: 1,
      issues: ["mx_tls_version_outdated"]
    })
    expect(rule(analyse(input([withNull()]), NOW))).toMatchObject({
      status: "fail",
      issues: ["mx_tls_cipher_weak"]
    })
  })

  it("fails an MX whose TLS 1.2 lacks Extended Master Secret (RFC 7627), naming the guideline", () => {
    const r = analyse(
      input([scan({ extendedMasterSecret: true }), scan({ extendedMasterSecret: false })]),
      NOW
    )
    expect(r.guideline).toBe("NCSC-NL TLS 2025-05")
    expect(r.servers.map((s) => [s.extendedMasterSecret, s.extendedMasterSecretRating])).toEqual([
      [true, "good"],
      [false, "insufficient"]
    ])
    expect(r.servers[1]!.issues.join()).toMatch(/TLS 1.2 without Extended Master Secret/)
    expect(rule(r)).toMatchObject({ status: "fail", issues: ["mx_tls_ems_missing"] })
    // Not asked (TLS 1.2 refused, or a scan from before): not applicable, the verdict as it was.
    expect(rule(analyse(input([scan({ extendedMasterSecret: null })]), NOW)).status).toBe("pass")
  })

  it("is unknown when an address could not be scanned, and the server keeps its own verdict", () => {
    const r = analyse(input([scan(), null]), NOW)
    expect(r.servers[1]!.rating).toBeNull()
    const alone = analyse(input([null]), NOW).servers[0]!
    expect(r.servers[1]!.status).toBe(alone.status)
    expect(r.servers[1]!.issues).toEqual(alone.issues.map((i) => i.replace("192.0.2.25", "192.0.2.26")))
    expect(rule(r).status).toBe("unknown")
  })

  it("scores a result stored before the scan existed as not applicable", () => {
    const r = analyse(input([scan()]), NOW)
    const stored = {
      ...r,
      servers: r.servers.map(({ rating: _r, versions: _v, versionsRating: _vr, ...rest }) => rest)
    } as SmtpTlsResult
    expect(rule(stored).status).toBe("not-applicable")
  })

  it("is total: any mix of versions and suites gets a verdict (property)", () => {
    const support = fc.constantFrom("accepted" as const, "refused" as const, "unknown" as const)
    const suite = fc.constantFrom(
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_RSA_WITH_AES_128_CBC_SHA",
      "TLS_ECDHE_ECDSA_WITH_NULL_SHA",
      "TLS_AES_128_GCM_SHA256"
    )
    fc.assert(
      fc.property(
        fc.array(
          fc.option(
            fc.record({
              v: fc.tuple(support, support, support, support),
              suites: fc.array(suite, { maxLength: 4 }),
              status: fc.constantFrom("complete" as const, "unknown" as const)
            })
          ),
          { minLength: 1, maxLength: 3 }
        ),
        (xs) => {
          const scans = xs.map((x) =>
            x === null
              ? null
              : scan({
                  status: x.status,
                  versions: { TLSv1: x.v[0], "TLSv1.1": x.v[1], "TLSv1.2": x.v[2], "TLSv1.3": x.v[3] },
                  suites: x.suites.map((cipher) => ({ cipher, version: "TLSv1.2", keyExchange: X25519 }))
                })
          )
          const verdict = rule(analyse(input(scans), NOW))
          expect(["pass", "partial", "fail", "unknown", "not-applicable"]).toContain(verdict.status)
        }
      )
    )
  })
})
