/** The DNSSEC algorithm rule reads the key sizes the DNSSEC check reports. */
import { describe, expect, it } from "vitest"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { dnssecRecords } from "../../src/checks/dnssec/Rules.ts"
import { recordsOfRulings } from "../../src/score/Rules.ts"

const scanWith = (issues: ReadonlyArray<{ severity: string; code: string; message: string }>) =>
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
          rrsig: { exists: true, records: [], algorithmSecurity: "modern", issues: [] }
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
})
