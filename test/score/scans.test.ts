/**
 * Property tests of the score over whole generated scans (the arbitraries `domain-audit/testing`
 * exports): the score is total, its percentage lies in its grade's band, and a scan whose DNS
 * lookup answered is graded rather than called unscannable.
 */
import { FastCheck as fc, Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { AnyCheck } from "../../src/kernel/Check.ts"
import { ScanResult } from "../../src/scan/ScanResult.ts"
import { checkOutcome, checkResult, scanResult } from "../../src/score/Arbitraries.ts"
import { registry } from "../../src/checks/index.ts"
import { gradeScale } from "../../src/score/Model.ts"
import { ScanScore, score } from "../../src/score/Score.ts"
import { runs } from "../support/runs.ts"

const band = (grade: string) => gradeScale.find((g) => g.grade === grade)!

describe("the score of generated scans", () => {
  it("generates scans their Schema accepts, with each check's outcome consistent", () =>
    fc.assert(
      fc.property(scanResult(), (scan) => {
        expect(Schema.is(ScanResult)(scan)).toBe(true)
        for (const outcome of Object.values(scan.checks))
          expect(outcome.status === "done" ? outcome.reason : outcome.result).toBeNull()
      }),
      { numRuns: runs(50) }
    ))

  it("is total, and its percentage lies in the band of its grade", () =>
    fc.assert(
      fc.property(scanResult(), (scan) => {
        const s = score(scan)
        expect(Schema.is(ScanScore)(s)).toBe(true)
        expect(s.percentage).toBeGreaterThanOrEqual(band(s.grade).minPercentage)
        expect(s.percentage).toBeLessThanOrEqual(band(s.grade).maxPercentage)
        if (s.unscannable !== null) {
          expect([s.grade, s.percentage]).toEqual(["F", 0])
          // Nothing was measured, so no fix claims to regain points.
          expect(s.recommendations.map((r) => r.points)).toEqual(s.recommendations.map(() => 0))
        }
      }),
      { numRuns: runs(50) }
    ))

  it("grades a scan whose lookup answered", () =>
    fc.assert(
      fc.property(scanResult({ gradable: true }), (scan) => {
        expect(score(scan).unscannable).toBeNull()
      }),
      { numRuns: runs(50) }
    ))

  it("generates each check's results as its Schema declares them", () => {
    for (const check of registry as ReadonlyArray<AnyCheck>)
      fc.assert(
        fc.property(checkResult(check), (result) => {
          expect(Schema.is(check.result)(result)).toBe(true)
        }),
        { numRuns: runs(5) }
      )
  })

  it("generates each check's outcome under its own id and category", () =>
    fc.assert(
      fc.property(
        fc.constantFrom(...registry).chain((check) => checkOutcome(check).map((o) => [check, o] as const)),
        ([check, o]) => {
          expect([o.id, o.category, o.title]).toEqual([check.id, check.category, check.title])
        }
      ),
      { numRuns: runs(30) }
    ))
})
