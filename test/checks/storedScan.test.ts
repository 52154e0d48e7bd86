/**
 * A stored scan read by a registry that gained or lost checks since (src/scan/StoredScan.ts): a
 * check added since reads "not checked" and is left out of the score and the NIS2 scorecard; a
 * check removed since is kept where the scan is served as stored and skipped where it is typed.
 */
import { Either, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { checksRun, NOT_CHECKED, readStoredScan, StoredScanResult } from "../../src/scan/StoredScan.ts"
import { canonicalJson } from "../../src/report/Canonical.ts"
import { nis2Scorecard } from "../../src/score/Nis2.ts"
import { score } from "../../src/score/Score.ts"
import { readBack, storedBy, without, withToy } from "../fixtures/registries.ts"
import { toyRegistry } from "../fixtures/toy/registry.ts"
import { arbScan, FIXTURES, storedScan } from "../monitor/scans.ts"
import { runs } from "../support/runs.ts"

const ids: ReadonlyArray<string> = registry.map((c) => c.id)
/** The checks a scan ran: a stored fixture may predate a check the registry has gained since. */
const ranIn = (scan: Parameters<typeof checksRun>[0]): ReadonlyArray<string> =>
  checksRun(scan, registry).map((c) => c.id)
/** The registry's checks a scan did not run. */
const notRunIn = (scan: Parameters<typeof checksRun>[0]) => ids.filter((id) => !ranIn(scan).includes(id))

describe("a stored scan read by today's registry", () => {
  it("reads a check added since as not checked, and scores the scan by the checks it ran", () => {
    const full = storedScan("dmarc-none.com")
    const old = readBack(without("dnssec"), full)
    expect(old.checks.dnssec).toMatchObject({ status: "unknown", reason: NOT_CHECKED, result: null })
    expect(ranIn(old)).toEqual(ranIn(full).filter((id) => id !== "dnssec"))
    expect(ranIn(full)).toContain("dnssec")
    // As the service of its time scored it: no DNSSEC record, no DNSSEC issue, not "unknown".
    const scored = score(old)
    expect(scored).toEqual(score(full, without("dnssec", ...notRunIn(full))))
    expect(scored.categories.dnssec.checks).toEqual([])
    expect(scored.issues.map((i) => i.id)).not.toContain("dnssec_unsigned")
    expect(score(full).issues.map((i) => i.id)).toContain("dnssec_unsigned")
    // The NIS2 scorecard is judged on the evidence it had: no item of a record it did not make.
    const items = nis2Scorecard(old, "en").measures.flatMap((m) => m.evidence.map((e) => e.checkId))
    expect(items.some((id) => id.startsWith("dnssec."))).toBe(false)
    expect(
      nis2Scorecard(full, "en")
        .measures.flatMap((m) => m.evidence.map((e) => e.checkId))
        .some((id) => id.startsWith("dnssec."))
    ).toBe(true)
  })

  it("keeps a check removed since where it is served as stored, and skips it where it is typed", () => {
    const stored = storedBy(toyRegistry, withToy(storedScan("perfect.com")))
    const decoded = Schema.decodeUnknownSync(StoredScanResult)(stored)
    // Encoded again: the very JSON stored, the toy's outcome with it, so it hashes as it did.
    expect(canonicalJson(Schema.encodeSync(StoredScanResult)(decoded))).toBe(canonicalJson(stored))
    const typed = Either.getOrThrow(readStoredScan(stored))
    expect(Object.keys(typed.checks)).toEqual(ids)
    expect(score(typed)).toEqual(score(storedScan("perfect.com")))
  })

  it("still refuses an outcome of a known check that is damaged", () => {
    const stored = storedBy(registry, storedScan("perfect.com")) as any
    stored.checks.dmarc.status = "half-done"
    expect(Either.isLeft(readStoredScan(stored))).toBe(true)
    delete stored.checks.dmarc.status
    expect(Either.isLeft(readStoredScan(stored))).toBe(true)
  })

  it("scores any scan with any checks missing as the service without them did (property)", () => {
    // What a score says, less the words of a rule that read a check the scan does not have.
    const verdict = (s: ReturnType<typeof score>) => ({
      grade: s.grade,
      percentage: s.percentage,
      points: s.points,
      maxPoints: s.maxPoints,
      issues: s.issues.map((i) => i.id),
      records: Object.values(s.categories).flatMap((c) => c.checks.map((r) => [r.id, r.status, r.points]))
    })
    fc.assert(
      fc.property(arbScan, fc.subarray(ids.filter((id) => id !== "dns-records")), (scan, gone) => {
        const checks = without(...gone)
        const old = readBack(checks, scan)
        expect(ranIn(old)).toEqual(ranIn(scan).filter((id) => !gone.includes(id)))
        // As the registry without them scores the scan in which they could not finish: their own
        // records left out, and a rule of another check that reads one of them says unknown.
        const unfinished = structuredClone(scan) as any
        for (const id of gone)
          unfinished.checks[id] = {
            ...unfinished.checks[id],
            status: "unknown",
            reason: "timeout",
            result: null
          }
        expect(verdict(score(old))).toEqual(verdict(score(unfinished, without(...gone, ...notRunIn(scan)))))
        expect(nis2Scorecard(old, "en").measures).toHaveLength(10)
      }),
      { numRuns: runs(40) }
    )
  })

  it("round-trips every stored fixture unchanged through the stored Schema", () => {
    for (const domain of FIXTURES) {
      const stored = storedBy(registry, storedScan(domain))
      const again = Schema.encodeSync(StoredScanResult)(Schema.decodeUnknownSync(StoredScanResult)(stored))
      expect(canonicalJson(again)).toBe(canonicalJson(stored))
    }
  })
})
