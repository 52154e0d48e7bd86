import { describe, expect, it } from "vitest"
import fc from "fast-check"
import {
  analyseMx,
  emailScore,
  mxSet,
  type DkimScoreInput,
  type DmarcScoreInput,
  type MxSet,
  type SpfScoreInput
} from "../../../src/checks/email/EmailCheck.ts"
import { CheckStatuses } from "../../../src/checks/Status.ts"

const spfGood: SpfScoreInput = { status: "pass", exists: true, valid: true, policy: "fail" }
const dkimGood: DkimScoreInput = {
  status: "pass",
  discovery: "found",
  valid_keys: 2,
  selectorsFound: [
    { valid: true, keyType: "rsa", keyLength: 2048 },
    { valid: true, keyType: "ed25519", keyLength: 256 }
  ]
}
const dmarcGood: DmarcScoreInput = {
  status: "pass",
  exists: true,
  valid: true,
  policy: "reject",
  pct: 100,
  reportingEnabled: true
}
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

describe("emailScore", () => {
  it("gives 100 to a fully protected domain and 0 to an unprotected one", () => {
    expect(emailScore({ spf: spfGood, dkim: dkimGood, dmarc: dmarcGood, mx: { set: mxNormal } }).score).toBe(
      100
    )
    const none = emailScore({
      spf: { status: "missing", exists: false, valid: false, policy: "none" },
      dkim: { status: "missing", discovery: "not-found", valid_keys: 0, selectorsFound: [] },
      dmarc: { status: "missing", exists: false, valid: false, reportingEnabled: false },
      mx: { set: mxNormal }
    })
    expect(none.score).toBe(0)
  })

  it("a null-MX domain is not penalised for having no DKIM (RFC 7505)", () => {
    const r = emailScore({
      spf: spfGood,
      dkim: { status: "missing", discovery: "not-found", valid_keys: 0, selectorsFound: [] },
      dmarc: { ...dmarcGood, reportingEnabled: false },
      mx: { set: mxNull }
    })
    expect(r.score).toBe(100)
    expect(r.partial).toBe(false)
  })

  it("unknown parts leave the total instead of counting as missing", () => {
    const r = emailScore({
      spf: { status: "unknown", exists: false, valid: false, policy: "unknown" },
      dkim: dkimGood,
      dmarc: dmarcGood,
      mx: { set: "unknown" }
    })
    expect(r.score).toBe(100)
    expect(r.partial).toBe(true)
  })

  it("orders the usual configurations sensibly", () => {
    const s = (spf: Partial<SpfScoreInput>, dmarc: Partial<DmarcScoreInput>) =>
      emailScore({
        spf: { ...spfGood, ...spf },
        dkim: dkimGood,
        dmarc: { ...dmarcGood, ...dmarc },
        mx: { set: mxNormal }
      }).score
    expect(s({}, {})).toBeGreaterThan(s({ policy: "softfail" }, {}))
    expect(s({ policy: "softfail" }, {})).toBeGreaterThan(s({ policy: "neutral" }, {}))
    expect(s({}, {})).toBeGreaterThan(s({}, { policy: "quarantine" }))
    expect(s({}, { policy: "quarantine" })).toBeGreaterThan(s({}, { policy: "none" }))
    expect(s({}, { policy: "reject", pct: 100 })).toBeGreaterThan(s({}, { policy: "reject", pct: 10 }))
    expect(s({}, {})).toBeGreaterThan(s({ policy: "pass" }, {}))
    expect(s({ valid: false }, {})).toBeLessThan(s({ policy: "neutral" }, {}))
  })

  it("stays an integer in 0-100 for any input", () => {
    const status = fc.constantFrom(...CheckStatuses) as fc.Arbitrary<SpfScoreInput["status"]>
    const pol = fc.option(
      fc.constantFrom("none", "quarantine", "reject") as fc.Arbitrary<"none" | "quarantine" | "reject">,
      { nil: undefined }
    )
    fc.assert(
      fc.property(
        fc.record({
          status,
          exists: fc.boolean(),
          valid: fc.boolean(),
          policy: fc.constantFrom("fail", "softfail", "neutral", "pass", "none", "unknown") as fc.Arbitrary<
            SpfScoreInput["policy"]
          >
        }),
        fc.record({
          status,
          discovery: fc.constantFrom("found", "not-found", "unknown") as fc.Arbitrary<
            DkimScoreInput["discovery"]
          >,
          valid_keys: fc.nat(5),
          selectorsFound: fc.array(
            fc.record({
              valid: fc.boolean(),
              keyType: fc.constantFrom("rsa", "ed25519"),
              keyLength: fc.option(fc.nat(8192), { nil: null })
            })
          )
        }),
        fc.record({
          status,
          exists: fc.boolean(),
          valid: fc.boolean(),
          policy: pol,
          subdomainPolicy: pol,
          pct: fc.option(fc.integer({ min: -50, max: 500 }), { nil: undefined }),
          reportingEnabled: fc.boolean()
        }),
        fc.constantFrom<MxSet | "unknown">(mxNormal, mxNull, "unknown"),
        (spf, dkim, dmarc, set) => {
          const r = emailScore({ spf, dkim, dmarc, mx: { set } })
          expect(Number.isInteger(r.score)).toBe(true)
          expect(r.score).toBeGreaterThanOrEqual(0)
          expect(r.score).toBeLessThanOrEqual(100)
          for (const p of r.parts) expect(p.earned).toBeLessThanOrEqual(p.possible)
        }
      )
    )
  })
})

describe("analyseMx", () => {
  it("reads null MX, implicit MX, mixed null MX and failures", () => {
    expect(analyseMx(mxNull)).toMatchObject({
      nullMx: true,
      status: "not-applicable",
      records: [{ priority: 0, host: "." }]
    })
    expect(analyseMx({ ...mxNormal, records: [], implicit: true }).status).toBe("warning")
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
