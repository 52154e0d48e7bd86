/**
 * The report's concerns cover the registry and the catalogue: every check is one section, every
 * catalogue issue belongs to a section and has at least one citation with a URL.
 */
import { describe, expect, it } from "@effect/vitest"
import { registry } from "../../src/checks/index.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import {
  bibliography,
  sourceOf,
  sources,
  sourcesNamedIn,
  sourcesOfIssue
} from "../../src/report/Citations.ts"
import { concernOfIssue, concerns } from "../../src/report/Sections.ts"

describe("report sections", () => {
  it("present every check of the registry exactly once", () => {
    const checks = concerns.flatMap((c) => (c.check === null ? [] : [c.check]))
    expect([...checks].sort()).toEqual(registry.map((c) => c.id).sort())
  })

  it("own every catalogue issue, and each issue cites a source with a URL", () => {
    for (const [id, entry] of Object.entries(catalogue)) {
      const concern = concernOfIssue(id)
      expect(concern.key, id).not.toBe("quickScore")
      const own = sourcesOfIssue(id, entry.description)
      const keys = own.length > 0 ? own : concern.sources
      expect(keys.length, id).toBeGreaterThan(0)
      for (const key of keys) expect(sourceOf(key).url, `${id}: ${key}`).toMatch(/^https:\/\//)
    }
  })

  it("cite only sources that are declared with a title, each declared once", () => {
    for (const check of registry)
      for (const key of check.about.section.sources)
        expect(Object.hasOwn(sources, key), `${check.id} cites ${key}, declared nowhere`).toBe(true)
    // no key twice: two checks, or a check and the shared bibliography, would disagree on its title
    const declared = registry.flatMap((c) => Object.keys(c.about.citations ?? {}))
    expect(Object.keys(sources).length).toBe(Object.keys(bibliography).length + declared.length)
  })

  it("read RFC numbers and named documents from a description", () => {
    expect(sourcesNamedIn("RFC 1034 4.1 and RFC 2182 ask for two; see M3AAWG and RFC 1034")).toEqual([
      "rfc1034",
      "rfc2182",
      "m3aawg"
    ])
    expect(sourceOf("rfc9999").url).toBe("https://www.rfc-editor.org/rfc/rfc9999")
  })
})
