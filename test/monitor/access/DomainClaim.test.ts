/**
 * The claim's pure rules: the token's shape, where the challenge lives, what a look-up finds, and
 * how findings move a claim (a failed look-up never lapses one; a day unchecked is due).
 */
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import {
  type ChallengeLookup,
  challengeName,
  type ClaimState,
  findToken,
  looksLikeToken,
  newToken,
  nextState,
  recheckDue
} from "../../../src/monitor/access/DomainClaim.ts"
import { runs } from "../../support/runs.ts"

const states = fc.constantFrom<ClaimState>("pending", "verified", "lapsed")
const lookups: fc.Arbitrary<ChallengeLookup> = fc.oneof(
  fc.record({
    records: fc.array(fc.string({ maxLength: 80 }), { maxLength: 4 }),
    authenticated: fc.boolean()
  }),
  fc.record({ error: fc.string({ minLength: 1 }) })
)

/** DOMAIN_RECHECK's default, a day. */
const RECHECK_MS = 86_400_000

describe("a domain claim", () => {
  it("has a token of 256 random bits with a prefix, new each time", () => {
    const tokens = Array.from({ length: 50 }, newToken)
    for (const t of tokens) expect(looksLikeToken(t)).toBe(true)
    expect(new Set(tokens).size).toBe(50)
    expect(looksLikeToken("domain-audit-verification=short")).toBe(false)
    expect(looksLikeToken(`x${tokens[0]}`)).toBe(false)
  })

  it("is published under its own underscored label", () => {
    expect(challengeName("example.com")).toBe("_domain-audit-challenge.example.com")
  })

  it("is found only as a whole record, and never in a failed look-up", () => {
    const token = newToken()
    expect(findToken({ records: [` ${token} `], authenticated: true }, token)).toEqual({
      found: "present",
      authenticated: true
    })
    expect(findToken({ records: [`${token}x`, `v=spf1 ${token}`], authenticated: false }, token)).toEqual({
      found: "absent"
    })
    expect(findToken({ error: "servfail: bogus" }, token)).toEqual({
      found: "unknown",
      reason: "servfail: bogus"
    })
    fc.assert(
      fc.property(lookups, (lookup) => {
        const finding = findToken(lookup, token)
        // random records never carry the token; an error is always unknown
        expect(finding.found).toBe("error" in lookup ? "unknown" : "absent")
      }),
      { numRuns: runs(200) }
    )
  })

  it("moves by its findings: found verifies, gone lapses a verified claim, unknown changes nothing", () => {
    fc.assert(
      fc.property(states, lookups, fc.boolean(), (state, lookup, withToken) => {
        const token = newToken()
        const shown: ChallengeLookup =
          withToken && !("error" in lookup) ? { ...lookup, records: [...lookup.records, token] } : lookup
        const finding = findToken(shown, token)
        const next = nextState(state, finding)
        if (finding.found === "present") expect(next).toBe("verified")
        if (finding.found === "unknown") expect(next).toBe(state)
        if (finding.found === "absent") expect(next).toBe(state === "verified" ? "lapsed" : state)
        // only a found token ever makes a claim verified
        if (next === "verified" && state !== "verified") expect(finding.found).toBe("present")
      }),
      { numRuns: runs(300) }
    )
  })

  it("is due for its re-check DOMAIN_RECHECK after the last one, when verified", () => {
    fc.assert(
      fc.property(states, fc.nat(10 * RECHECK_MS), fc.nat(10 * RECHECK_MS), (state, checkedAt, elapsed) => {
        const due = recheckDue({ state, checkedAt }, checkedAt + elapsed, RECHECK_MS)
        expect(due).toBe(state === "verified" && elapsed >= RECHECK_MS)
      }),
      { numRuns: runs(300) }
    )
    expect(recheckDue({ state: "verified", checkedAt: null }, 0, RECHECK_MS)).toBe(true)
  })
})
