/**
 * The sharing of a TLS enumeration per address (TlsShare.ts), as properties over arbitrary scans: a
 * name's own ordinary handshake confirms the shared enumeration exactly when both completed with
 * the same version and suite, and the name's scan then takes the enumeration from the shared one
 * and its handshake, certificate and stapling from its own.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { blankScan, type TlsScanResult } from "../../src/net/TlsScan.ts"
import { confirms, sharedFor } from "../../src/net/TlsShare.ts"

const support = fc.constantFrom("accepted", "refused", "unknown" as const)
const negotiated = fc.option(
  fc.record({
    protocol: fc.constantFrom("TLSv1.2", "TLSv1.3"),
    cipher: fc.constantFrom("TLS_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
  })
)
const certificate = fc.option(
  fc.record({
    chain: fc.constant([]),
    trusted: fc.boolean(),
    trustError: fc.constant(null),
    hostnameMatch: fc.boolean(),
    hostnameError: fc.constant(null),
    signatureAlgorithm: fc.constantFrom("ecdsa-with-SHA256", "sha256WithRSAEncryption")
  })
)

/** A scan of `host` (a full one, or with `enumerated: false` a certificate-only one). */
const scanOf = (host: string, enumerated: boolean): fc.Arbitrary<TlsScanResult> =>
  fc
    .record({
      status: fc.constantFrom("complete", "closed", "unknown" as const),
      versions: fc.record({ TLSv1: support, "TLSv1.1": support, "TLSv1.2": support, "TLSv1.3": support }),
      suites: fc.array(
        fc.record({
          cipher: fc.constantFrom("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
          version: fc.constantFrom("TLSv1.2", "TLSv1.3"),
          keyExchange: fc.constant(null)
        }),
        { maxLength: 4 }
      ),
      serverOrder: fc.option(fc.boolean()),
      suitesComplete: fc.boolean(),
      negotiated,
      certificate,
      ocspStapled: fc.option(fc.boolean()),
      extendedMasterSecret: fc.option(fc.boolean()),
      handshakes: fc.nat({ max: 48 }),
      elapsedMs: fc.nat({ max: 10_000 })
    })
    .map(({ extendedMasterSecret, ...parts }): TlsScanResult => {
      const scan = {
        ...blankScan(host, "192.0.2.80", 443, parts.status, null, new Date(enumerated ? 0 : 1_000)),
        ...parts
      }
      return enumerated ? { ...scan, extendedMasterSecret } : { ...scan, suites: [], enumerated: false }
    })

describe("confirms and sharedFor", () => {
  it("a name's handshake confirms the shared enumeration exactly when both agree on version and suite", () =>
    fc.assert(
      fc.property(scanOf("example.com", true), scanOf("www.example.com", false), (shared, own) => {
        const agree =
          shared.status === "complete" &&
          own.status === "complete" &&
          shared.negotiated !== null &&
          JSON.stringify(shared.negotiated) === JSON.stringify(own.negotiated)
        expect(confirms(shared, own)).toBe(agree)
      })
    ))

  it("a certificate-only scan is never taken for a shared enumeration", () =>
    fc.assert(
      fc.property(scanOf("example.com", false), (scan) => {
        expect(confirms(scan, { ...scan, host: "www.example.com" })).toBe(false)
      })
    ))

  it("the name's scan: the shared enumeration, the name's own handshake, and who enumerated", () =>
    fc.assert(
      fc.property(scanOf("example.com", true), scanOf("www.example.com", false), (shared, own) => {
        const scan = sharedFor(shared, own)
        expect(scan.host).toBe("www.example.com")
        expect(scan.enumeratedAs).toBe("example.com")
        expect(scan.enumerated).toBeUndefined()
        for (const field of [
          "status",
          "versions",
          "suites",
          "serverOrder",
          "suitesComplete",
          "extendedMasterSecret"
        ] as const)
          expect(scan[field]).toEqual(shared[field])
        for (const field of [
          "negotiated",
          "certificate",
          "ocspStapled",
          "handshakes",
          "checkedAt",
          "elapsedMs",
          "failure"
        ] as const)
          expect(scan[field]).toEqual(own[field])
        // Shared again from a name's scan, it still names the name that enumerated.
        expect(sharedFor(scan, { ...own, host: "shop.example.com" }).enumeratedAs).toBe("example.com")
      })
    ))
})
