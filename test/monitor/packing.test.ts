/**
 * The packed form of a history entry's scan: a delta rebuilds exactly the scan it was made from,
 * whatever the two JSON values, and packing two world scans of one domain stores far fewer bytes
 * than the scan compressed whole.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Json } from "../../src/monitor/Change.ts"
import {
  applyDelta,
  deltaOf,
  isKeyframe,
  packDelta,
  packWhole,
  unpack
} from "../../src/monitor/HistoryPacking.ts"
import { storedScan } from "./scans.ts"
import { runs } from "../support/runs.ts"

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>

describe("history packing", () => {
  it("rebuilds the target from a delta, and leaves the base as it was", () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        const before = JSON.stringify(a)
        expect(applyDelta(a, deltaOf(a, b))).toEqual(b)
        expect(JSON.stringify(a)).toBe(before)
      }),
      { numRuns: runs(500) }
    )
  })

  it("rebuilds a scan edited deep inside (and a member named __proto__ stays data)", () => {
    const a = JSON.parse(JSON.stringify(storedScan("perfect.com"))) as any
    const b = structuredClone(a)
    b.checks.dmarc.result.policy = "none"
    b.checks["smtp-tls"].result.servers[0].elapsedMs = 1
    delete b.checks.dkim.result.lookupMs
    Object.defineProperty(b.checks["dns-records"].result.records, "__proto__", {
      value: [{ polluted: true }],
      enumerable: true,
      writable: true,
      configurable: true
    })
    const ops = deltaOf(a, b)
    expect(ops.length).toBe(4)
    const rebuilt = unpack(packDelta(a, b), a) as any
    expect(rebuilt).toEqual(b)
    expect(({} as any).polluted).toBeUndefined()
  })

  it("stores a scan of the same domain as a delta a fraction of the whole", () => {
    const a = JSON.parse(JSON.stringify(storedScan("perfect.com"))) as any
    const b = structuredClone(a)
    b.computedAt = "2026-12-01T00:00:00.000Z"
    for (const outcome of Object.values(b.checks) as Array<any>) outcome.durationMs += 17
    const whole = packWhole(b).length
    const delta = packDelta(a, b).length
    expect(unpack(packWhole(b), undefined)).toEqual(b)
    expect(delta * 10).toBeLessThan(whole)
  })

  it("keeps every 32nd entry whole", () => {
    expect([1, 2, 32, 33, 34, 65].map(isKeyframe)).toEqual([true, false, false, true, false, true])
  })
})
