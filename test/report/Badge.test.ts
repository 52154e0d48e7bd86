/** The badge: valid SVG with the grade, its colour, and ids that never collide. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BADGE_COLOURS, badgeSvg } from "../../src/report/Badge.ts"
import { parseSvg } from "./svg.ts"

const domain = fc
  .array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/), { minLength: 2, maxLength: 4 })
  .map((labels) => labels.join("."))
const grade = fc.constantFrom("A+", "A", "B", "C", "D", "F", null)

describe("badgeSvg", () => {
  it("is an SVG whose text is the grade, in the grade's colour", () => {
    for (const g of ["A+", "A", "B", "C", "D", "F"]) {
      const svg = badgeSvg("perfect.com", g)
      const parsed = parseSvg(svg)
      expect(parsed.root?.name).toBe("svg")
      expect(parsed.root?.attribs?.xmlns).toBe("http://www.w3.org/2000/svg")
      expect(parsed.texts).toContain(g)
      expect(parsed.texts).toContain("security")
      expect(svg).toMatch(new RegExp(`aria-label="security: ${g.replace("+", "\\+")}"`))
    }
    expect(BADGE_COLOURS["A+"]).toBe("brightgreen")
    expect(BADGE_COLOURS.F).toBe("red")
    // badge-maker 6.0.0 lib/color.js: red is #dd4343, lightgrey #939393
    expect(badgeSvg("perfect.com", "F")).toContain('fill="#dd4343"')
  })

  it("is the grey 'unscannable' badge with the scan's reason as its title", () => {
    const svg = badgeSvg("no-such-domain.com", null, "no-such-domain.com does not exist (NXDOMAIN)")
    expect(parseSvg(svg).texts).toContain("unscannable")
    expect(svg).toContain(
      "<title>security: unscannable: no-such-domain.com does not exist (NXDOMAIN)</title>"
    )
    expect(svg).toContain('aria-label="security: unscannable: no-such-domain.com does not exist (NXDOMAIN)"')
    expect(svg).toContain('fill="#939393"')
  })

  it("is the grey 'unknown' badge without a grade", () => {
    const parsed = parseSvg(badgeSvg("no-such-domain.com", null))
    expect(parsed.texts).toContain("unknown")
    expect(badgeSvg("no-such-domain.com", null)).toContain('fill="#939393"')
  })

  it("resolves every reference inside itself, and shares no id with another badge", () => {
    fc.assert(
      fc.property(domain, grade, domain, grade, (d1, g1, d2, g2) => {
        const one = parseSvg(badgeSvg(d1, g1))
        const two = parseSvg(badgeSvg(d2, g2))
        for (const b of [one, two]) {
          expect(new Set(b.ids).size).toBe(b.ids.length)
          for (const ref of b.references) expect(b.ids).toContain(ref)
        }
        if (d1 !== d2 || g1 !== g2) for (const id of one.ids) expect(two.ids).not.toContain(id)
      })
    )
  })

  it("is deterministic", () => {
    expect(badgeSvg("perfect.com", "A+")).toBe(badgeSvg("perfect.com", "A+"))
  })
})
