/**
 * A deep scan's result read back from the jobs table by a registry that gained or lost checks since
 * it was stored (src/jobs/DeepScan.ts `readStoredResult`): served with the check added since as
 * not checked, not refused as "stored by an earlier version".
 */
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { NOT_CHECKED } from "../../src/scan/StoredScan.ts"
import { MAIL_CHECKS, readStoredResult } from "../../src/jobs/DeepScan.ts"
import { storedBy, without } from "../fixtures/registries.ts"
import { storedScan } from "../monitor/scans.ts"

const read = (stored: object) => Effect.runSync(Effect.either(readStoredResult(JSON.stringify(stored))))

describe("a stored deep-scan result", () => {
  it("reads a full scan stored before a check was added, with that check not checked", () => {
    const scan = storedBy(without("dnssec"), storedScan("perfect.com"))
    const result = Either.getOrThrow(read({ type: "full", domain: "perfect.com", scan }))
    expect(result.type).toBe("full")
    expect(result.scan.checks).toHaveProperty("dnssec.reason", NOT_CHECKED)
    expect(result.scan.checks).toHaveProperty("spf.status", "done")
  })

  it("reads a mail scan over the mail checks of today, dropping a check it no longer runs", () => {
    const full = storedScan("perfect.com")
    const [first, ...rest] = MAIL_CHECKS
    const scan = storedBy(rest, full) as { checks: Record<string, unknown> }
    scan.checks.retired = { id: "retired", status: "done", result: { anything: true } }
    const result = Either.getOrThrow(read({ type: "mail", domain: "perfect.com", scan }))
    expect(Object.keys(result.scan.checks)).toEqual(MAIL_CHECKS.map((c) => c.id))
    expect(result.scan.checks).toHaveProperty(`${first!.id}.reason`, NOT_CHECKED)
  })

  it("still refuses a damaged outcome of a check it knows", () => {
    const scan = storedBy(without(), storedScan("perfect.com")) as any
    scan.checks.dmarc.status = "half-done"
    expect(Either.isLeft(read({ type: "full", domain: "perfect.com", scan }))).toBe(true)
  })
})
