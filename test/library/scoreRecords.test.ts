/**
 * The library's `scoreRecords` takes its `domain` as any caller types it: decoded as the API decodes
 * a domain, or refused with a `DomainAuditError` that gives the API's reason.
 */
import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { DomainAuditError, scoreRecords } from "../../src/lib/DomainAudit.ts"
import { normaliseDomain } from "../../src/records/DomainName.ts"

const meta = (domain: string) => ({ domain, timestamp: "2026-01-01T00:00:00.000Z", cached: false })

describe("scoreRecords in the library", () => {
  it("decodes the domain as the API does", () => {
    expect(scoreRecords([], meta("https://Example.COM./path")).domain).toBe("example.com")
  })

  it("refuses what is not a domain with the API's reason", () => {
    expect(() => scoreRecords([], meta("not a domain"))).toThrow(DomainAuditError)
    expect(() => scoreRecords([], meta("192.0.2.1"))).toThrow(/IP addresses are not domains/)
  })

  it("scores under normaliseDomain's name, or throws its reason (property)", () =>
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.domain()), (input) => {
        const decoded = normaliseDomain(input)
        if (Either.isRight(decoded)) expect(scoreRecords([], meta(input)).domain).toBe(decoded.right)
        else expect(() => scoreRecords([], meta(input))).toThrow(decoded.left)
      })
    ))
})
