/**
 * Every catalogue issue has guidance a domain owner can follow: a reason, steps, no boilerplate, no
 * API path in the text a manager reads (the generator endpoint has a field of its own), sources
 * that resolve, and a generator exactly where the catalogue says one writes the fix.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogue, issueIds } from "../../src/score/Catalogue.ts"
import { guidanceOf, guidedIds } from "../../src/score/Guidance.ts"
import { sources } from "../../src/report/Citations.ts"

/** Text that says nothing specific: what the guidance replaced. */
const BOILERPLATE = [/correct what the description names/i, /the check's detail shows/i, /\bTODO\b/, /lorem/i]

/** A path of this service's API, or a method and path: for the generator field, not the prose. */
const API_PATH =
  /\b(GET|POST|PUT|DELETE|PATCH)\s+\/|(^|[\s(])\/(api|email|dns|ai|scan|report|security-headers|csp|pdf|badge|debug-email|jobs)(\/|\b)/

const GENERATORS = [
  "POST /email/spf/generate",
  "POST /email/dmarc/generate",
  "POST /dns/tlsa/generate",
  "POST /security-headers/generate"
]

const prose = (id: string) => {
  const g = guidanceOf(id)!
  return [g.why, ...g.steps, ...g.providers.map((p) => p.note)]
}

describe("the guidance", () => {
  it("covers exactly the catalogue", () => {
    expect([...guidedIds].sort()).toEqual([...issueIds].sort())
    expect(guidanceOf("no_such_issue")).toBeUndefined()
  })

  it.each(issueIds)("%s: says why and what to do, specifically", (id) => {
    const g = guidanceOf(id)!
    expect(g.why.length).toBeGreaterThan(40)
    expect(g.steps.length).toBeGreaterThanOrEqual(1)
    for (const text of [...prose(id), ...(g.record === null ? [] : [g.record])]) {
      expect(text.trim()).not.toBe("")
      for (const pattern of BOILERPLATE) expect(text).not.toMatch(pattern)
      expect(text, `an API path in the text a manager reads: ${text}`).not.toMatch(API_PATH)
    }
    // the reason is not the catalogue's description again
    expect(g.why).not.toBe(catalogue[id]!.description)
  })

  it.each(issueIds)("%s: cites sources that resolve", (id) => {
    const g = guidanceOf(id)!
    expect(g.references.length).toBeGreaterThanOrEqual(1)
    for (const ref of g.references)
      expect(Object.hasOwn(sources, ref) || /^https:\/\/\S+$/.test(ref), `unknown source ${ref}`).toBe(true)
  })

  it.each(issueIds)("%s: names a generator exactly when the catalogue says one writes the fix", (id) => {
    const g = guidanceOf(id)!
    if (catalogue[id]!.fixable) expect(GENERATORS).toContain(g.generator)
    else expect(g.generator).toBeNull()
  })

  it("lists each provider at most once per issue", () => {
    for (const id of issueIds) {
      const names = guidanceOf(id)!.providers.map((p) => p.provider)
      expect(new Set(names).size).toBe(names.length)
    }
  })

  it("names the domain it is read for, and leaves no placeholder", () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/)
    fc.assert(
      fc.property(fc.constantFrom(...issueIds), label, (id, name) => {
        const domain = `${name}.nl`
        const text = JSON.stringify(guidanceOf(id, domain))
        expect(text).not.toContain("{domain}")
        // guidance that names the domain at all names this one
        if (JSON.stringify(guidanceOf(id, "sentinel.invalid")).includes("sentinel.invalid"))
          expect(text).toContain(domain)
      })
    )
  })

  it("stages a DMARC move from p=none: reports to a mailbox that receives mail first, then quarantine, then reject", () => {
    const steps = guidanceOf("dmarc_policy_none")!.steps.join("\n")
    const reports = steps.search(/rua/)
    const quarantine = steps.search(/p=quarantine/)
    const reject = steps.search(/p=reject/)
    expect(reports).toBeGreaterThanOrEqual(0)
    expect(steps).toMatch(/receives mail/)
    expect(quarantine).toBeGreaterThan(reports)
    expect(reject).toBeGreaterThan(quarantine)
  })
})
