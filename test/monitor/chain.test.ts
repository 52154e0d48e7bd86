/**
 * The hash chain of a domain's history: a chain built entry by entry verifies, and altering any
 * field of any one entry (or its scan, or removing it) is caught at that entry's seq.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { sha256Of } from "../../src/report/Canonical.ts"
import { type HistoryEntry, nextEntry, verifyChain } from "../../src/monitor/HistoryChain.ts"

const grades = ["A+", "A", "B", "C", "D", "F"] as const

const arbChain = fc
  .array(
    fc.record({
      grade: fc.constantFrom(...grades),
      percentage: fc.integer({ min: 0, max: 100 }),
      scanJson: fc.string().map((s) => JSON.stringify({ s })),
      at: fc.integer({ min: 0, max: 1e12 })
    }),
    { minLength: 1, maxLength: 8 }
  )
  .map((scans) => {
    const chain: Array<{ entry: HistoryEntry; scanJson: string }> = []
    for (const s of scans) {
      const entry = nextEntry("example.test", chain.at(-1)?.entry ?? null, {
        scannedAt: new Date(s.at).toISOString(),
        grade: s.grade,
        percentage: s.percentage,
        scanJson: s.scanJson
      })
      chain.push({ entry, scanJson: s.scanJson })
    }
    return chain
  })

describe("the history's hash chain", () => {
  it("verifies as built", () => {
    fc.assert(
      fc.property(arbChain, (chain) => {
        expect(verifyChain("example.test", chain)).toEqual({
          chainValid: true,
          invalidSeq: null,
          reason: null
        })
        expect(chain[0]!.entry.previousHash).toBeNull()
        expect(chain[0]!.entry.contentHash).toBe(sha256Of(chain[0]!.scanJson))
      })
    )
  })

  it("fails at the seq of an entry altered in any field", () => {
    const fields = [
      "scannedAt",
      "grade",
      "percentage",
      "contentHash",
      "previousHash",
      "hash",
      "scan"
    ] as const
    fc.assert(
      fc.property(arbChain, fc.nat(), fc.constantFrom(...fields), (chain, pick, field) => {
        const k = pick % chain.length
        const altered = chain.map((x) => ({ ...x }))
        const target = altered[k]!
        if (field === "scan") target.scanJson = target.scanJson + " "
        else if (field === "percentage")
          target.entry = { ...target.entry, percentage: target.entry.percentage + 1 }
        else if (field === "grade")
          target.entry = { ...target.entry, grade: target.entry.grade === "F" ? "A" : "F" }
        else if (field === "scannedAt")
          target.entry = { ...target.entry, scannedAt: "1999-01-01T00:00:00.000Z" }
        else target.entry = { ...target.entry, [field]: sha256Of("forged") }
        const verdict = verifyChain("example.test", altered)
        expect(verdict.chainValid).toBe(false)
        expect(verdict.invalidSeq).toBe(k + 1)
      })
    )
  })

  // Removing the newest entries leaves a shorter chain that verifies: the triggers refuse the
  // DELETE, and a reader who kept the last hash they were shown detects it (docs/monitoring.md).
  it("fails where an entry before the last was removed, and for another domain's entries", () => {
    fc.assert(
      fc.property(
        arbChain.filter((c) => c.length >= 2),
        fc.nat(),
        (chain, pick) => {
          const k = pick % (chain.length - 1)
          const removed = chain.filter((_, i) => i !== k)
          expect(verifyChain("example.test", removed)).toMatchObject({ chainValid: false, invalidSeq: k + 1 })
          expect(verifyChain("other.test", chain)).toMatchObject({ chainValid: false, invalidSeq: 1 })
        }
      )
    )
  })
})
