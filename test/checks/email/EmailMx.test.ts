import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { analyseMx, mxSet, type MxSet } from "../../../src/checks/email/EmailMx.ts"

const mxNormal: MxSet = {
  records: [{ priority: 10, host: "mx.example" }],
  nullMx: false,
  nullMxMixed: false,
  implicit: false
}
const mxNull: MxSet = {
  records: [{ priority: 0, host: "" }],
  nullMx: true,
  nullMxMixed: false,
  implicit: false
}

describe("analyseMx", () => {
  it("reads null MX, implicit MX, mixed null MX and failures", () => {
    expect(analyseMx(mxNull)).toMatchObject({
      nullMx: true,
      status: "not-applicable",
      records: [{ priority: 0, host: "." }]
    })
    expect(analyseMx({ ...mxNormal, records: [], implicit: true }).status).toBe("warning")
    const nowhere = analyseMx({ ...mxNormal, records: [], implicit: false })
    expect(nowhere.status).toBe("warning")
    expect(nowhere.issues.join()).toMatch(/no A\/AAAA address: mail to the domain cannot be delivered/)
    expect(analyseMx({ ...mxNormal, nullMxMixed: true }).status).toBe("fail")
    expect(analyseMx({ error: "servfail" })).toMatchObject({ status: "unknown", records: [] })
  })

  it("reads an MX answer per RFC 7505 3 and RFC 5321 5.1", () => {
    expect(mxSet([{ priority: 0, exchange: "" }])).toEqual(mxNull)
    expect(mxSet([{ priority: 10, exchange: "mx.example" }])).toEqual(mxNormal)
    expect(mxSet([])).toMatchObject({ implicit: true, nullMx: false })
    expect(
      mxSet([
        { priority: 0, exchange: "." },
        { priority: 10, exchange: "mx.example" }
      ])
    ).toMatchObject({ nullMx: false, nullMxMixed: true })
  })

  it("property: any MX answer reads to a verdict without throwing", () => {
    const answer = fc.array(
      fc.record({ priority: fc.nat(65535), exchange: fc.oneof(fc.constant(""), fc.domain()) }),
      { maxLength: 4 }
    )
    fc.assert(
      fc.property(answer, (a) => {
        const set = mxSet(a)
        expect([set.nullMx, set.nullMxMixed, set.implicit].filter(Boolean).length).toBeLessThanOrEqual(1)
        expect(analyseMx(set).records.length).toBe(a.length)
      })
    )
  })
})
