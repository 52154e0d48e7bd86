import { describe, expect, it } from "vitest"
import { Either, Schema } from "effect"
import fc from "fast-check"
import { NormalDomain, normaliseDomain } from "../../src/records/DomainName.ts"
import { runs } from "../support/runs.ts"

const readBack = Schema.decodeUnknownEither(NormalDomain)

describe("NormalDomain: a stored domain read back", () => {
  it("reads every name normaliseDomain makes as it is", () => {
    fc.assert(
      fc.property(fc.oneof(fc.domain(), fc.webUrl(), fc.string()), (input) => {
        const normal = normaliseDomain(input)
        if (Either.isRight(normal)) expect(Either.getOrThrow(readBack(normal.right))).toBe(normal.right)
      }),
      { numRuns: runs(300) }
    )
  })

  it("refuses a name that was never normalised rather than branding it", () => {
    for (const raw of ["Example.com", "example.com.", "https://example.com/", "example", "-a.com", ""])
      expect(Either.isLeft(readBack(raw)), raw).toBe(true)
  })

  it("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => void readBack(value)),
      { numRuns: runs(200) }
    )
  })
})
