/** The DNSSEC algorithm rule reads the key sizes the DNSSEC check reports. */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { algorithmSecurity, weakest } from "../../src/records/DnssecKeys.ts"
import { runs } from "../support/runs.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { dnssecRecords } from "../../src/checks/dnssec/Rules.ts"
import { recordsOfRulings } from "../../src/score/Rules.ts"

const scanWith = (
  issues: ReadonlyArray<{ severity: string; code: string; message: string }>,
  algorithmSecurity = "modern"
) =>
  ({
    checks: {
      dnssec: {
        status: "done",
        reason: null,
        result: {
          state: "secure",
          signed: true,
          valid: true,
          issues,
          chain: [],
          errors: [],
          nsec3param: { exists: false, issues: [] },
          rrsig: { exists: true, records: [], algorithmSecurity, issues: [] }
        }
      }
    }
  }) as unknown as ScanResult

const algorithm = (scan: ScanResult) =>
  recordsOfRulings(dnssecRecords(scan)).find((r) => r.id === "dnssec.algorithm")!

describe("the DNSSEC algorithm rule", () => {
  it("gives full points to a recommended algorithm with keys of sound size", () => {
    expect(algorithm(scanWith([]))).toMatchObject({ status: "pass", points: 3 })
  })

  it("takes a point for an RSA key below 2048 bits and names the issue", () => {
    const short = algorithm(
      scanWith([{ severity: "warning", code: "dnskey-rsa-short", message: "a 1024-bit RSA key" }])
    )
    expect(short).toMatchObject({ status: "partial", points: 2 })
    expect(short.issues).toContain("dnssec_rsa_key_short")
  })

  it("a chain resting on a SHA-1 DS alone loses a point (RFC 9904 Table 3: MUST NOT)", () => {
    const sha1 = algorithm(
      scanWith([{ severity: "error", code: "ds-digest-deprecated", message: "DS 1 uses SHA-1" }])
    )
    expect(sha1).toMatchObject({ status: "partial", points: 2 })
    expect(sha1.issues).toEqual(["dnssec_weak_digest"])
    // Beside a SHA-256 DS the SHA-1 one is only a warning: validators ignore it (RFC 4509 3).
    expect(
      algorithm(scanWith([{ severity: "warning", code: "ds-digest-deprecated", message: "beside SHA-256" }]))
    ).toMatchObject({ status: "pass", points: 3 })
  })

  it("never gains points when a weaker algorithm or a SHA-1-only DS joins (property)", () => {
    const verdictOf = (algs: ReadonlyArray<number>) => weakest(algs.map(algorithmSecurity))
    const points = (algs: ReadonlyArray<number>, sha1Only: boolean) =>
      algorithm(
        scanWith(
          sha1Only ? [{ severity: "error", code: "ds-digest-deprecated", message: "SHA-1 only" }] : [],
          verdictOf(algs)
        )
      ).points ?? 0
    const alg = fc.integer({ min: 0, max: 255 })
    fc.assert(
      fc.property(fc.array(alg, { minLength: 1, maxLength: 3 }), alg, fc.boolean(), (algs, extra, sha1) => {
        expect(points([...algs, extra], sha1)).toBeLessThanOrEqual(points(algs, sha1))
        expect(points(algs, true)).toBeLessThanOrEqual(points(algs, false))
        // RFC 9905: a SHA-1 algorithm in the set never leaves a point standing.
        if ([...algs, extra].some((a) => a === 5 || a === 7)) expect(points([...algs, extra], sha1)).toBe(0)
      }),
      { numRuns: runs(200) }
    )
  })
})
