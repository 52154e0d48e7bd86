/**
 * The hosting signatures: each names its source, and no CNAME suffix of one falls under another's,
 * so a target finds the same signature whatever the order of the list.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { HOSTING_SIGNATURES, signatureFor } from "../../../src/checks/takeover/Signatures.ts"

const suffixes = HOSTING_SIGNATURES.flatMap((s) => s.cnames.map((c) => ({ service: s.service, c })))

describe("HOSTING_SIGNATURES", () => {
  it("every signature names where it comes from", () => {
    for (const s of HOSTING_SIGNATURES) expect(s.source).toMatch(/^https:\/\/github\.com\//)
  })

  it("no suffix falls under another service's", () => {
    for (const a of suffixes)
      for (const b of suffixes)
        if (a.service !== b.service) expect(a.c === b.c || a.c.endsWith(`.${b.c}`)).toBe(false)
  })

  it("a name under a suffix finds that suffix's service, in any order of the list", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...suffixes),
        fc.domain(),
        fc.boolean(),
        fc.shuffledSubarray([...HOSTING_SIGNATURES], { minLength: HOSTING_SIGNATURES.length }),
        ({ service, c }, label, dotted, list) => {
          const target = `${label}.${c}${dotted ? "." : ""}`
          expect(signatureFor(target, list)?.service).toBe(service)
          expect(signatureFor(target)?.service).toBe(service)
        }
      )
    )
  })
})
