/**
 * Evidence over a period: each score record's and NIS2 measure's share of the time it held pass,
 * weighted by how long each entry was in force, and the changes between the entries.
 */
import { domain } from "../support/domain.ts"
import { describe, expect, it } from "vitest"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { evidenceOf } from "../../src/monitor/Evidence.ts"
import { evidenceMarkdown } from "../../src/monitor/EvidenceMarkdown.ts"
import { type HistoryEntry, nextEntry, verifyChain } from "../../src/monitor/HistoryChain.ts"
import { canonicalJson } from "../../src/report/Canonical.ts"
import { score } from "../../src/score/Score.ts"
import { asDomain, storedScan } from "./scans.ts"

const DOMAIN = domain("example.test")
const minute = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString()

const chainOf = (scans: ReadonlyArray<ScanResult>) => {
  const out: Array<{ entry: HistoryEntry; scan: ScanResult }> = []
  for (const scan of scans) {
    const scored = score(scan)
    const entry = nextEntry(DOMAIN, out.at(-1)?.entry ?? null, {
      scannedAt: scan.computedAt,
      grade: scored.grade,
      percentage: scored.percentage,
      scanJson: canonicalJson(scan)
    })
    out.push({ entry, scan })
  }
  return out
}

describe("evidenceOf", () => {
  // reject from minute 0, none from minute 10, reject again from minute 20
  const chain = chainOf([
    asDomain(storedScan("perfect.com"), DOMAIN, minute(0)),
    asDomain(storedScan("dmarc-none.com"), DOMAIN, minute(10)),
    asDomain(storedScan("perfect.com"), DOMAIN, minute(20))
  ])
  const verdict = verifyChain(
    DOMAIN,
    chain.map(({ entry, scan }) => ({ entry, scanJson: canonicalJson(scan) }))
  )

  it("weighs each entry by the time it was in force in the period", () => {
    const evidence = evidenceOf(DOMAIN, { from: minute(5), to: minute(35) }, verdict, chain)
    expect(evidence.observedSeconds).toBe(30 * 60)
    const dmarc = evidence.checks.find((c) => c.id === "email.dmarc.policy")!
    // held pass from 5 to 10 and from 20 to 35: 20 of 30 minutes
    expect(dmarc).toMatchObject({ passShare: 0.6667, passSeconds: 1200, appliedSeconds: 1800 })
    const measureG = evidence.measures.find((m) => m.id === "g")!
    expect(measureG.passShare).not.toBeNull()
    expect(measureG.passShare!).toBeLessThan(1)
    expect(evidence.changes.map((s) => [s.fromSeq, s.toSeq])).toEqual([
      [1, 2],
      [2, 3]
    ])
    expect(evidence.changes[0]!.changes.map((c) => c.summary)).toContain(
      "DMARC policy went from reject to none."
    )
    expect(evidence.changes[1]!.changes.map((c) => c.summary)).toContain(
      "DMARC policy went from none to reject."
    )
  })

  it("leaves out time in which a record did not apply, and says null when it never did", () => {
    const evidence = evidenceOf(DOMAIN, { from: minute(0), to: minute(30) }, verdict, chain)
    for (const share of [...evidence.checks, ...evidence.measures]) {
      expect(share.appliedSeconds).toBeLessThanOrEqual(evidence.observedSeconds)
      expect(share.passShare === null).toBe(share.appliedSeconds === 0)
    }
  })

  it("renders as markdown with every hash and the chain's verdict", () => {
    const evidence = evidenceOf(DOMAIN, { from: minute(0), to: minute(30) }, verdict, chain)
    const text = evidenceMarkdown(evidence)
    for (const { entry } of chain) {
      expect(text).toContain(entry.hash)
      expect(text).toContain(entry.contentHash)
    }
    expect(text).toContain("The history's hash chain verifies.")
    expect(text).toContain("- high: DMARC policy went from reject to none.")
    const broken = evidenceMarkdown({ ...evidence, chainValid: false, invalidSeq: 2 })
    expect(broken).toContain("does not verify at seq 2")
  })
})
