/** Property tests of the scoring model over generated check records. */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { scoredRecords } from "../../src/score/Arbitraries.ts"
import { bandOf, type Grade, gradeRank, percentOf } from "../../src/score/Model.ts"
import { type Scored, scored } from "../../src/score/Rules.ts"
import { scoreRecords } from "../../src/score/Score.ts"
import { domain as toDomain } from "../support/domain.ts"

const arbRecords = scoredRecords
const meta = { domain: toDomain("example.com"), timestamp: "2026-01-01T00:00:00.000Z", cached: false }
const run = (rs: ReadonlyArray<Scored>) => scoreRecords(rs, meta)
const asPass = (r: Scored): Scored =>
  scored(
    {
      id: r.id,
      title: r.title,
      titleNl: r.title,
      category: r.category,
      maxPoints: r.maxPoints === 0 && r.status !== "pass" ? 0 : r.maxPoints,
      level: r.level,
      critical: r.critical,
      rule: "",
      rank: 0
    },
    { status: "pass", detail: "fixed" }
  )
/** The declared maximum of a record: unscored records keep it aside, so regenerate with it. */
const withMax = fc.integer({ min: 1, max: 8 })

describe("the scoring model", () => {
  it("keeps points within bounds and percentages within 0..100", () => {
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const s = run(rs)
        for (const r of rs) {
          expect(r.points).toBeGreaterThanOrEqual(0)
          expect(r.points).toBeLessThanOrEqual(r.maxPoints)
          if (r.status === "unknown" || r.status === "not-applicable")
            expect([r.points, r.maxPoints]).toEqual([0, 0])
        }
        expect(s.percentage).toBeGreaterThanOrEqual(0)
        expect(s.percentage).toBeLessThanOrEqual(100)
        expect(s.score).toBe(s.percentage)
        for (const c of Categories) {
          const cat = s.categories[c]
          expect(cat.score).toBe(cat.percentage)
          expect(cat.points).toBeLessThanOrEqual(cat.maxPoints)
        }
      })
    )
  })

  it("gives the grade the percentage and the caps say", () => {
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const s = run(rs)
        const band = bandOf(percentOf(s.points, s.maxPoints))
        const fatal = rs.some((r) => r.fatal)
        const criticalFails = rs.filter((r) => r.critical && r.status === "fail" && !r.fatal).length
        const nothing = rs.every((r) => r.maxPoints === 0)
        if (fatal || nothing) expect(s.grade).toBe("F")
        else if (s.grade === "A+") {
          expect(s.percentage).toBe(100)
          expect(
            rs.filter((r) => r.critical).every((r) => r.status === "pass" || r.status === "not-applicable")
          ).toBe(true)
          expect(rs.some((r) => r.status === "unknown")).toBe(false)
        } else {
          const cap = criticalFails >= 2 ? "C" : criticalFails === 1 ? "B" : "A"
          expect(gradeRank(s.grade)).toBe(Math.min(gradeRank(band), gradeRank(cap)))
        }
        if (s.gradeInfo.caps.length > 0) expect(s.gradeInfo.description).toContain(s.gradeInfo.caps[0])
      })
    )
  })

  it("reports a percentage inside the band of the reported grade: a cap lowers both", () => {
    const bands: Record<Grade, readonly [number, number]> = {
      "A+": [100, 100],
      A: [90, 99],
      B: [80, 89],
      C: [70, 79],
      D: [50, 69],
      F: [0, 49]
    }
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const s = run(rs)
        const [low, high] = bands[s.grade]
        expect(s.percentage).toBeGreaterThanOrEqual(low)
        expect(s.percentage).toBeLessThanOrEqual(high)
        // Lowered only as far as the band needs: the points' own percentage when it already fits.
        expect(s.percentage).toBe(Math.min(percentOf(s.points, s.maxPoints), high))
      })
    )
  })

  it("sorts by percentage as by grade: a capped scan never sorts above a better-graded one", () => {
    fc.assert(
      fc.property(arbRecords, arbRecords, (a, b) => {
        const [sa, sb] = [run(a), run(b)]
        if (gradeRank(sa.grade) > gradeRank(sb.grade)) expect(sa.percentage).toBeGreaterThan(sb.percentage)
      })
    )
  })

  it("never lowers the percentage or the grade when a check is fixed", () => {
    fc.assert(
      fc.property(arbRecords, fc.nat(), withMax, (rs, k, max) => {
        const i = k % rs.length
        const before = run(rs)
        const r = rs[i]!
        const fixed = {
          ...asPass(r),
          maxPoints: r.maxPoints || (r.status === "pass" ? 0 : max),
          points: r.maxPoints || (r.status === "pass" ? 0 : max)
        }
        const after = run(rs.map((x, j) => (j === i ? fixed : x)))
        expect(after.percentage).toBeGreaterThanOrEqual(before.percentage)
        expect(gradeRank(after.grade)).toBeGreaterThanOrEqual(gradeRank(before.grade))
      })
    )
  })

  it("never lowers the percentage when a failing check turns unknown", () => {
    fc.assert(
      fc.property(arbRecords, fc.nat(), (rs, k) => {
        const i = k % rs.length
        const r = rs[i]!
        // A failed check worth no points costs nothing, while an unknown one withholds A+ (99 %,
        // "could not be verified"): the property holds for checks that cost points.
        if (r.status !== "fail" || r.maxPoints === 0) return
        const unknown = scored(
          { ...r, titleNl: r.title, rule: "", rank: 0 },
          { status: "unknown", detail: "" }
        )
        expect(run(rs.map((x, j) => (j === i ? unknown : x))).percentage).toBeGreaterThanOrEqual(
          run(rs).percentage
        )
      })
    )
  })

  it("is deterministic, and every issue it names is in the catalogue", () => {
    fc.assert(
      fc.property(arbRecords, (rs) => {
        expect(run(rs)).toEqual(run(rs))
        for (const issue of run(rs).issues) expect(catalogue).toHaveProperty(issue.id)
      })
    )
  })

  it("orders recommendations by the points they regain", () => {
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const points = run(rs).recommendations.map((r) => r.points)
        expect(points).toEqual([...points].sort((a, b) => b - a))
      })
    )
  })
})

describe("gradeInfo", () => {
  const spec = (id: string, maxPoints: number, critical = false) => ({
    id,
    title: id,
    titleNl: id,
    category: "email" as const,
    maxPoints,
    level: "required" as const,
    critical,
    rule: "",
    rank: 0
  })
  it("names the cap and what lifts it", () => {
    const rs = [
      scored(spec("a", 90), { status: "pass", detail: "" }),
      scored(spec("DMARC policy", 8, true), { status: "partial", points: 6, detail: "p=quarantine" }),
      scored(spec("SPF record", 2, true), {
        status: "fail",
        detail: "no SPF record",
        issues: ["spf_missing"]
      })
    ]
    const s = run(rs)
    expect([s.percentage, s.grade, s.points, s.maxPoints]).toEqual([89, "B", 96, 100])
    expect(s.gradeInfo.description).toBe(
      "96 % of the applicable points is band A. Capped at B: the critical check SPF record fails (no SPF record). Fixing it lifts the grade to A. It is reported as 89 %, inside band B."
    )
    const fatal = run([
      ...rs.slice(0, 2),
      scored(spec("SPF policy", 2), { status: "fail", detail: "+all", fatal: true })
    ])
    expect([fatal.grade, fatal.percentage]).toEqual(["F", 49])
    expect(fatal.gradeInfo.caps).toEqual(["Capped at F: SPF policy (+all). Fixing it lifts the grade to A."])
  })

  it("names a cap only when it binds: the grade is the cap's and below the points' band", () => {
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const s = run(rs)
        const band = bandOf(percentOf(s.points, s.maxPoints))
        for (const cap of s.gradeInfo.caps) {
          expect(cap).not.toMatch(/would be capped/i)
          const capped = /^Capped at (A\+|A|B|C|D|F):/.exec(cap)?.[1] as Grade | undefined
          if (capped === undefined) continue
          expect(s.grade).toBe(capped)
          expect(gradeRank(band)).toBeGreaterThan(gradeRank(capped))
          expect(cap).toMatch(/lifts the grade to (A|B|C|D)\./)
        }
      })
    )
  })

  it("does not name a cap the points are already under", () => {
    const rs = [
      scored(spec("a", 60), { status: "fail", detail: "" }),
      scored(spec("SPF record", 40, true), {
        status: "fail",
        detail: "no SPF record",
        issues: ["spf_missing"]
      })
    ]
    const s = run(rs)
    expect(s.grade).toBe("F")
    expect(s.gradeInfo.caps).toEqual([])
    expect(s.gradeInfo.description).toBe("F: 0 % of the applicable points.")
  })

  it("says why an A is not an A+", () => {
    const s = run([
      scored(spec("a", 10), { status: "pass", detail: "" }),
      scored(spec("DKIM", 5), { status: "unknown", detail: "no key found" })
    ])
    expect([s.percentage, s.grade]).toEqual([99, "A"])
    expect(s.gradeInfo.description).toContain("A, not A+: DKIM could not be verified")
  })

  it("names the reason and no cap when the domain cannot be graded", () => {
    const s = scoreRecords(
      [
        scored(spec("Name servers", 3), {
          status: "fail",
          detail: "no such domain",
          fatal: true,
          issues: ["dns_no_such_domain"]
        })
      ],
      { ...meta, unscannable: "example.com does not exist (NXDOMAIN)" }
    )
    expect(s).toMatchObject({
      grade: "F",
      percentage: 0,
      unscannable: "example.com does not exist (NXDOMAIN)"
    })
    expect(s.gradeInfo).toEqual({
      grade: "F",
      label: "Unscannable",
      description: "Not graded: example.com does not exist (NXDOMAIN).",
      caps: []
    })
    // Its points are not at stake: the one fix makes the domain scannable and claims none.
    expect(s.recommendations.map((r) => [r.id, r.points, r.impact])).toEqual([
      ["dns_no_such_domain", 0, "lets the domain be scanned and graded"]
    ])
  })
})
