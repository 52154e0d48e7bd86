/**
 * Property tests of the NIS2 scorecard over generated check records: the total stays in 0..100,
 * a not-applicable measure never moves it, improving any evidence item never lowers it, and the
 * English and Dutch scorecards differ only in text.
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { checkRecord } from "../../src/score/Arbitraries.ts"
import { type CheckRecord, record } from "../../src/score/Model.ts"
import { nis2FromRecords, type Nis2Scorecard, nis2Summary } from "../../src/score/Nis2.ts"
import { evidenceCheckIds, MEASURES } from "../../src/score/Nis2Mapping.ts"
import type { Lang } from "../../src/score/Nis2Text.ts"
import { domain as toDomain } from "../support/domain.ts"

const arbRecords = fc.tuple(...evidenceCheckIds.map(checkRecord))
const meta = { domain: toDomain("perfect.com"), scannedAt: "2026-01-01T00:00:00.000Z", cached: false }
const card = (rs: ReadonlyArray<CheckRecord>, lang: Lang = "en", measures = MEASURES) =>
  nis2FromRecords(rs, meta, lang, measures)

const asPass = (r: CheckRecord): CheckRecord =>
  record({ ...r, status: "pass", maxPoints: Math.max(1, r.maxPoints), points: undefined, issues: [] })

/** The scorecard with every human-read string blanked: what must not depend on the language. */
const shape = (c: Nis2Scorecard) => ({
  ...c,
  caveat: "",
  measures: c.measures.map((m) => ({
    ...m,
    label: "",
    description: "",
    scope: "",
    evidence: m.evidence.map((e) => ({ ...e, label: "", detail: "" })),
    fixes: m.fixes.map(() => "")
  }))
})

describe("the NIS2 scorecard", () => {
  it("has integer totals and measure scores in 0..100, and a consistent status", () =>
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const c = card(rs)
        expect(Number.isInteger(c.total)).toBe(true)
        expect(c.total).toBeGreaterThanOrEqual(0)
        expect(c.total).toBeLessThanOrEqual(100)
        expect(c.measures.map((m) => m.id)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
        for (const m of c.measures) {
          expect(Number.isInteger(m.score) && m.score >= 0 && m.score <= 100).toBe(true)
          if (m.status === "not-applicable") expect([m.weight, m.effectiveWeight, m.score]).toEqual([0, 0, 0])
          expect(m.effectiveWeight).toBeLessThanOrEqual(m.weight)
        }
        for (const id of ["a", "f", "i"])
          expect(c.measures.find((m) => m.id === id)!.status).toBe("not-applicable")
        if (c.status === "compliant") {
          expect(c.total).toBeGreaterThanOrEqual(90)
          expect(c.criticalGaps).toEqual([])
        }
        if (c.total < 50 && c.status !== "unscannable") expect(c.status).toBe("non-compliant")
        expect(nis2Summary(c)).toEqual({ total: c.total, status: c.status, criticalGaps: c.criticalGaps })
      })
    ))

  it("never changes the total for a measure that is not applicable", () =>
    fc.assert(
      fc.property(arbRecords, fc.constantFrom(...MEASURES.map((m) => m.id)), (rs, id) => {
        // Make the chosen measure not applicable: its evidence does not apply or was not observed.
        const ids = new Set(MEASURES.find((m) => m.id === id)!.evidence.map((e) => e.checkId))
        const left = rs.map((r) =>
          ids.has(r.id) ? record({ ...r, status: r.maxPoints % 2 ? "unknown" : "not-applicable" }) : r
        )
        const withIt = card(left)
        const without = card(
          left,
          "en",
          MEASURES.filter((m) => m.id !== id)
        )
        expect(withIt.measures.find((m) => m.id === id)!.status).toBe("not-applicable")
        expect(withIt.total).toBe(without.total)
        expect(withIt.status === "unscannable").toBe(without.status === "unscannable")
      })
    ))

  it("never lowers the total when an evidence item improves to pass", () =>
    fc.assert(
      fc.property(arbRecords, fc.nat(), (rs, pick) => {
        const i = pick % rs.length
        const better = rs.map((r, j) => (j === i ? asPass(r) : r))
        expect(card(better).total).toBeGreaterThanOrEqual(card(rs).total)
      })
    ))

  it("never lowers the total when a failing item becomes missing-then-partial-then-pass", () =>
    fc.assert(
      fc.property(arbRecords, fc.nat(), fc.integer({ min: 1, max: 7 }), (rs, pick, points) => {
        const i = pick % rs.length
        const base = { ...rs[i]!, maxPoints: 8, critical: false, fatal: false }
        const steps: Array<CheckRecord> = [
          record({ ...base, status: "fail", issues: ["dnssec_unsigned"] }),
          record({ ...base, status: "fail", issues: ["dnssec_weak_algorithm"] }),
          record({ ...base, status: "partial", points, issues: ["dmarc_policy_quarantine"] }),
          record({
            ...base,
            status: "partial",
            points: Math.min(8, points + 1),
            issues: ["dmarc_policy_quarantine"]
          }),
          record({ ...base, status: "pass" })
        ]
        const totals = steps.map((s) => card(rs.map((r, j) => (j === i ? s : r))).total)
        for (let k = 1; k < totals.length; k++) expect(totals[k]!).toBeGreaterThanOrEqual(totals[k - 1]!)
      })
    ))

  it("answers the same scorecard in English and Dutch, except for the text", () =>
    fc.assert(
      fc.property(arbRecords, (rs) => {
        const en = card(rs, "en")
        const nl = card(rs, "nl")
        expect(shape(nl)).toEqual(shape(en))
        expect(nl.caveat).not.toBe(en.caveat)
      })
    ))

  it("says unscannable, never a bare 0, when the domain does not exist or nothing answered", () => {
    const pass = evidenceCheckIds.map((id) =>
      asPass(
        record({
          id,
          title: id,
          maxPoints: 1,
          level: "required",
          critical: false,
          status: "pass",
          detail: ""
        })
      )
    )
    expect(card(pass)).toMatchObject({ total: 100, status: "compliant", criticalGaps: [] })
    const nx = pass.map((r) =>
      record({ ...r, status: "fail", issues: ["dns_no_such_domain"], fatal: r.id === "dns.ns.count" })
    )
    const unknown = pass.map((r) => record({ ...r, status: "unknown" }))
    for (const [rs, why] of [
      [nx, /does not exist/],
      [unknown, /No evidence about the domain could be observed/]
    ] as const) {
      const c = card(rs)
      expect(c).toMatchObject({ total: 0, status: "unscannable", criticalGaps: [] })
      for (const m of c.measures) {
        expect(m).toMatchObject({ status: "not-applicable", weight: 0, fixes: [] })
        if (!["a", "f", "i"].includes(m.id)) for (const e of m.evidence) expect(e.detail).toMatch(why)
      }
    }
  })

  it("reads an unobserved item as left out (not missing), and blocks compliant on a critical one", () => {
    const pass = evidenceCheckIds.map((id) =>
      record({
        id,
        title: id,
        maxPoints: 2,
        level: "required",
        critical: id === "security.mx.starttls",
        status: "pass",
        detail: ""
      })
    )
    const starttlsUnknown = pass.map((r) => (r.critical ? record({ ...r, status: "unknown" }) : r))
    const c = card(starttlsUnknown)
    const item = c.measures
      .find((m) => m.id === "h")!
      .evidence.find((e) => e.checkId === "security.mx.starttls")!
    expect(item.result).toBe("not-applicable")
    expect(item.detail).toMatch(/could not be observed/i)
    expect(c.total).toBe(100)
    expect(c.status).toBe("partial")
    const gUnknown = new Set(MEASURES.find((m) => m.id === "g")!.evidence.map((e) => e.checkId))
    const mailAuthUnknown = pass.map((r) =>
      gUnknown.has(r.id) ? record({ ...r, status: "unknown", critical: r.id === "email.dmarc.policy" }) : r
    )
    expect(card(mailAuthUnknown).measures.find((m) => m.id === "g")!.status).toBe("not-applicable")
    expect(card(mailAuthUnknown)).toMatchObject({ total: 100, status: "partial" })
    const dkimUnknown = pass.map((r) => (r.id === "email.dkim" ? record({ ...r, status: "unknown" }) : r))
    expect(card(dkimUnknown)).toMatchObject({ total: 100, status: "compliant" })
    expect(card(dkimUnknown).measures.find((m) => m.id === "g")!.status).toBe("warning")
  })

  it("names missing, failing and critical evidence and its fixes", () => {
    const pass = evidenceCheckIds.map((id) =>
      record({
        id,
        title: id,
        maxPoints: 8,
        level: "required",
        critical: id === "email.dmarc.policy",
        status: "pass",
        detail: ""
      })
    )
    const with_ = (id: string, r: Partial<CheckRecord>) =>
      pass.map((x) => (x.id === id ? record({ ...x, status: "fail", ...r }) : x))
    const none = card(with_("email.dmarc.policy", { issues: ["dmarc_policy_none"] }), "nl")
    const g = none.measures.find((m) => m.id === "g")!
    expect(none.criticalGaps).toEqual(["g"])
    expect(g.status).toBe("fail")
    expect(g.evidence.find((e) => e.checkId === "email.dmarc.policy")).toMatchObject({ result: "fail" })
    expect(g.fixes).toEqual([expect.stringMatching(/^DMARC-beleid is none \(dmarc_policy_none\): /)])
    const caa = card(with_("dns.caa", { issues: ["caa_missing"] }))
    expect(caa.criticalGaps).toEqual([])
    expect(caa.measures.find((m) => m.id === "d")!.evidence[0]).toMatchObject({ result: "missing" })
    const quarantine = card(
      with_("email.dmarc.policy", { status: "partial", points: 6, issues: ["dmarc_policy_quarantine"] })
    )
    const q = quarantine.measures.find((m) => m.id === "g")!
    expect(q.evidence.find((e) => e.checkId === "email.dmarc.policy")!.result).toBe("pass")
    expect(q.fixes).toHaveLength(1)
    const bogus = card(with_("dnssec.valid", { issues: ["dnssec_bogus"], fatal: true }))
    expect(bogus.criticalGaps).toEqual(["h"])
    expect(bogus.status).toBe("non-compliant")
  })
})
