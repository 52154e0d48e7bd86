/** Every finding id the SPF and DMARC checks can emit is mapped to a catalogue issue (or a note on information). */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { checkDmarc } from "../../src/checks/dmarc/Dmarc.ts"
import { fakeTxt } from "../checks/fakeTxt.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { findingIssues as dmarcFindings } from "../../src/checks/dmarc/Findings.ts"
import { findingIssues as spfFindings } from "../../src/checks/spf/Findings.ts"
import { domain as toDomain } from "../support/domain.ts"

const findingIssues = { ...spfFindings, ...dmarcFindings }

const source = (path: string) => readFileSync(new URL(`../../src/checks/${path}`, import.meta.url), "utf8")
/** The ids of `add("id", ...)` calls: how Spf.ts and Dmarc.ts record a finding. */
const emitted = (text: string) => [...text.matchAll(/\badd\(\s*"([a-z0-9-]+)"/g)].map((m) => m[1]!)

describe("the finding -> issue table", () => {
  it("knows every finding id the SPF and DMARC checks emit", () => {
    const ids = [...emitted(source("spf/Spf.ts")), ...emitted(source("dmarc/Dmarc.ts"))]
    expect(ids.length).toBeGreaterThan(20)
    for (const id of ids) expect(Object.keys(findingIssues)).toContain(id)
  })

  it("knows the ids DMARC builds from a tag name (the tags DMARCbis removes)", () => {
    const zone = {
      "_dmarc.example.com": ["v=DMARC1; p=reject; pct=50; rf=iodef; ri=3600; rua=mailto:d@example.com"]
    }
    const result = Effect.runSync(checkDmarc(fakeTxt(zone).source, toDomain("example.com")))
    const removed = result.findings.map((f) => f.id).filter((id) => id.startsWith("dmarc-removed-"))
    expect(removed.sort()).toEqual(["dmarc-removed-pct", "dmarc-removed-rf", "dmarc-removed-ri"])
    for (const f of result.findings) expect(Object.keys(findingIssues)).toContain(f.id)
  })

  it("maps only to ids of the catalogue, all snake_case", () => {
    for (const id of Object.values(findingIssues))
      if (typeof id === "string") expect(catalogue).toHaveProperty(id)
    for (const id of Object.keys(catalogue)) expect(id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/)
  })
})
