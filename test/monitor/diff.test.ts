/**
 * The diff of two stored scans: the changes between world scenarios' scans named as their owner
 * would read them, and its laws over generated variations (a scan with itself: nothing; swapped:
 * the inverse changes).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Change, inverseKind } from "../../src/monitor/Change.ts"
import { registry } from "../../src/checks/index.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { evaluate } from "../../src/monitor/AlertRules.ts"
import { diffScans } from "../../src/monitor/Diff.ts"
import { readBack, without } from "../fixtures/registries.ts"
import { arbScan, asDomain, FIXTURES, storedScan } from "./scans.ts"
import { runs } from "../support/runs.ts"

const inverse = (c: Change) => ({ kind: inverseKind(c.kind), id: c.id, before: c.after, after: c.before })
const bare = (c: Change) => ({ kind: c.kind, id: c.id, before: c.before, after: c.after })
const byId = (a: { readonly id: string }, b: { readonly id: string }) => a.id.localeCompare(b.id)

describe("diffScans", () => {
  it("finds the DMARC policy going from reject to none, in words", () => {
    const before = asDomain(storedScan("perfect.com"), "example.test")
    const after = asDomain(storedScan("dmarc-none.com"), "example.test")
    const changes = diffScans(before, after)
    expect(changes.find((c) => c.id === "record/dmarc-policy")).toEqual({
      kind: "record",
      id: "record/dmarc-policy",
      before: "reject",
      after: "none",
      severity: "high",
      summary: "DMARC policy went from reject to none."
    })
    expect(changes[0]).toMatchObject({ kind: "grade", before: "A+", after: "D", severity: "high" })
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: "issue-opened", id: "issue/dmarc_policy_none", severity: "high" })
    )
    expect(changes).toContainEqual(
      expect.objectContaining({
        kind: "check",
        id: "check/email.dmarc.policy",
        before: "pass",
        after: "fail"
      })
    )
    expect(changes).toContainEqual(expect.objectContaining({ kind: "record", id: "record/mx" }))
  })

  it("names a new blocklist listing and an issue closed", () => {
    const changes = diffScans(
      storedScan("mx-listed.com"),
      asDomain(storedScan("mx-expired.com"), "mx-listed.com")
    )
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: "issue-closed", id: "issue/blocklisted", severity: "info" })
    )
    const listed = diffScans(
      storedScan("mx-expired.com"),
      asDomain(storedScan("mx-listed.com"), "mx-expired.com")
    )
    const listing = listed.find((c) => c.id === "blocklist/127.25.0.12/zen.spamhaus.org")
    expect(listing).toMatchObject({ before: null, severity: "high" })
    expect(listing!.summary).toMatch(
      /^The mail server mx\.mx-listed\.com \(127\.25\.0\.12\) is now listed on Spamhaus ZEN\.$/
    )
  })

  it("reports a rotated DKIM key and a renewed certificate", () => {
    const before = storedScan("perfect.com")
    const after = structuredClone(before) as any
    after.checks.dkim.result.selectorsFound[0].record = "v=DKIM1; k=rsa; p=AAAA"
    after.checks["smtp-tls"].result.servers[0].certificate.validTo = "2028-01-01T00:00:00.000Z"
    const changes = diffScans(before, after)
    expect(changes.map((c) => c.summary)).toEqual([
      "The DKIM key under selector selector1 was rotated.",
      "The certificate of mx.perfect.com now expires on 2028-01-01 (it was 2027-12-27)."
    ])
  })

  it("says nothing of what a scan could not tell (unknown is not missing)", () => {
    const before = storedScan("perfect.com")
    const after = structuredClone(before) as any
    after.checks["dns-records"].result.outcomes.MX = "timeout"
    delete after.checks["dns-records"].result.records.MX
    after.checks.dmarc = { ...after.checks.dmarc, status: "unknown", reason: "timeout", result: null }
    const changes = diffScans(before, after)
    expect(changes.filter((c) => c.kind === "record")).toEqual([])
  })

  it("of a scan with itself is empty", () => {
    for (const domain of FIXTURES) expect(diffScans(storedScan(domain), storedScan(domain))).toEqual([])
    fc.assert(
      fc.property(arbScan, (scan) => {
        expect(diffScans(scan, structuredClone(scan))).toEqual([])
      }),
      { numRuns: runs(60) }
    )
  })

  it("with the scans swapped gives the inverse changes", () => {
    fc.assert(
      fc.property(arbScan, arbScan, (a, b) => {
        const forward = diffScans(a, b).map(inverse).sort(byId)
        const backward = diffScans(b, a).map(bare).sort(byId)
        expect(backward).toEqual(forward)
      }),
      { numRuns: runs(60) }
    )
  })

  it("gives each change one id", () => {
    fc.assert(
      fc.property(arbScan, arbScan, (a, b) => {
        const ids = diffScans(a, b).map((c) => c.id)
        expect(new Set(ids).size).toBe(ids.length)
      }),
      { numRuns: runs(40) }
    )
  })
})

describe("diffScans of scans made by different registries", () => {
  // perfect.com, its zone unsigned: a domain that fails only the DNSSEC check.
  const unsigned = (): ScanResult => {
    const scan = structuredClone(storedScan("perfect.com")) as any
    scan.checks.dnssec = structuredClone(storedScan("dmarc-none.com").checks.dnssec)
    return scan
  }

  it("says a check added since was not checked then, and moves the grade only at info (no alert)", () => {
    const full = unsigned()
    const old = readBack(without("dnssec"), full)
    const changes = diffScans(old, full)
    expect(changes.find((c) => c.id === "check/dnssec.signed")).toEqual({
      kind: "check",
      id: "check/dnssec.signed",
      before: null,
      after: "fail",
      severity: "info",
      summary:
        'The "DNSSEC signed" check was not made then (the service has added it since); it now reads fail.'
    })
    const grade = changes.find((c) => c.kind === "grade")
    expect(grade).toMatchObject({ before: "A+", severity: "info" })
    expect(grade!.summary).toMatch(/because the checks made changed, not the domain/)
    // The domain did not change: no issue opened, no record changed, no alert.
    expect(changes.filter((c) => c.kind !== "grade" && (c.kind !== "check" || c.before !== null))).toEqual([])
    expect(evaluate(old, full, [], Date.parse(full.computedAt)).rules).toEqual([])
    // The other way round: the check the service removed is no longer made.
    expect(diffScans(full, old).find((c) => c.id === "check/dnssec.signed")).toMatchObject({
      before: "fail",
      after: null,
      severity: "info"
    })
  })

  it("still reports what the domain changed, over the checks both scans made", () => {
    const before = readBack(without("dnssec"), storedScan("perfect.com"))
    const after = asDomain(storedScan("dmarc-none.com"), "perfect.com")
    const changes = diffScans(before, after)
    expect(changes.find((c) => c.kind === "grade")).toMatchObject({
      before: "A+",
      after: "D",
      severity: "high"
    })
    expect(changes).toContainEqual(
      expect.objectContaining({ id: "issue/dmarc_policy_none", kind: "issue-opened" })
    )
    expect(changes.map((c) => c.id)).not.toContain("issue/dnssec_unsigned")
    expect(changes.find((c) => c.id === "check/dnssec.signed")).toMatchObject({
      before: null,
      severity: "info"
    })
  })

  const gone = fc.subarray(
    registry.map((c) => c.id).filter((id) => id !== "dns-records"),
    { maxLength: 4 }
  )

  it("of a scan with itself is empty, whatever checks it lacks", () => {
    fc.assert(
      fc.property(arbScan, gone, (scan, ids) => {
        const old = readBack(without(...ids), scan)
        expect(diffScans(old, structuredClone(old))).toEqual([])
      }),
      { numRuns: runs(40) }
    )
  })

  it("with the scans swapped gives the inverse changes", () => {
    fc.assert(
      fc.property(arbScan, gone, arbScan, gone, (a, goneA, b, goneB) => {
        const [x, y] = [readBack(without(...goneA), a), readBack(without(...goneB), b)]
        const forward = diffScans(x, y).map(inverse).sort(byId)
        const backward = diffScans(y, x).map(bare).sort(byId)
        expect(backward).toEqual(forward)
      }),
      { numRuns: runs(40) }
    )
  })

  it("between a scan and the same scan with checks it lacked says only that, at info", () => {
    fc.assert(
      fc.property(arbScan, gone, (scan, ids) => {
        const changes = diffScans(readBack(without(...ids), scan), scan)
        for (const c of changes) {
          expect(c.severity).toBe("info")
          expect(c.kind === "grade" || (c.kind === "check" && c.before === null)).toBe(true)
        }
      }),
      { numRuns: runs(40) }
    )
  })
})
