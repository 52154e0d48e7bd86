import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { isDmarcRecord, isNearDmarcRecord, parseDmarc, parseDmarcUri } from "../../src/records/DmarcRecord.ts"
import { runs } from "../support/runs.ts"

describe("parseDmarc: RFC 7489 examples", () => {
  // RFC 7489 Appendix B.2.1, B.2.3, B.2.4 and section 6.2.
  const table: ReadonlyArray<[string, Partial<ReturnType<typeof parseDmarc>> & Record<string, unknown>]> = [
    ["v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com", { p: "none", pct: null, errors: [] }],
    [
      "v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@thirdparty.example.net",
      { p: "none", errors: [] }
    ],
    [
      "v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net!10m; pct=25",
      { p: "quarantine", pct: 25, errors: [] }
    ],
    [
      "v=DMARC1; p=reject; sp=quarantine; adkim=s; aspf=r; fo=1:d; rf=afrf; ri=3600",
      { sp: "quarantine", adkim: "s", aspf: "r", ri: 3600 }
    ]
  ]
  for (const [record, expected] of table)
    it(record, () => {
      const parsed = parseDmarc(record)
      expect(parsed).toMatchObject(expected)
      expect(parsed.version).toBe("DMARC1")
    })

  it("reads URI size suffixes (RFC 7489 6.2)", () => {
    const parsed = parseDmarc(
      "v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net!10m"
    )
    expect(parsed.rua.map((u) => [u.address, u.domain, u.maxBytes])).toEqual([
      ["dmarc-feedback@example.com", "example.com", null],
      ["tld-test@thirdparty.example.net", "thirdparty.example.net", 10 * 1024 * 1024]
    ])
    expect(parseDmarcUri("mailto:a@b.example!50")).toMatchObject({ uri: { maxBytes: 50 } })
  })

  it("parses fo, rf, np, t, psd and keeps unknown tags", () => {
    const parsed = parseDmarc("v=DMARC1; p=reject; np=reject; t=y; psd=n; fo=0:1:d:s; foo=bar")
    expect(parsed).toMatchObject({
      np: "reject",
      t: true,
      psd: "n",
      fo: ["0", "1", "d", "s"],
      unknownTags: ["foo"]
    })
    expect(parsed.errors).toEqual([])
  })
})

describe("parseDmarc: errors with positions", () => {
  // [record, the text the error must point at, message]
  const cases: ReadonlyArray<[string, string, string]> = [
    ["v=DMARC1; p=blah", "blah", "p must be"],
    ["p=none; v=DMARC1", "p=none", "must start with v=DMARC1"],
    ["v=DMARC1; p=none; rua=dmarc@example.com", "dmarc@", "not a URI"],
    ["v=DMARC1; p=none; rua=mailto:a@example.com,mailto:bad", "mailto:bad", "not a valid mailto"],
    ["v=DMARC1; p=none; rua=mailto:a@example.com, mailto:b@example.com!9x", " mailto:b", "bad size limit"],
    ["v=DMARC1; p=none; adkim=x", "x", "adkim must be r"],
    ["v=DMARC1; p=none; fo=2", "2", "fo must be"],
    ["v=DMARC1; p=none; junk", "junk", "not a tag=value"],
    ["v=DMARC1; p=none; p=reject", "p=reject", "duplicate tag"],
    ["v=DMARC2; p=none", "DMARC2", "exactly 'DMARC1'"]
  ]
  for (const [record, at, message] of cases)
    it(record, () => {
      const errors = parseDmarc(record).errors
      expect(errors.find((e) => e.message.includes(message))?.position).toBe(record.indexOf(at))
    })
  it("a malformed removed tag (pct, rf, ri: DMARCbis) is kept apart from the record's errors", () => {
    const record = "v=DMARC1; p=none; pct=150; ri=x; rf=%%"
    const parsed = parseDmarc(record)
    expect(parsed.errors).toEqual([])
    expect(parsed.removedTagErrors.map((e) => [e.tag, e.position])).toEqual([
      ["pct", record.indexOf("150")],
      ["rf", record.indexOf("%%")],
      ["ri", record.indexOf("x")]
    ])
  })
  it("a record must begin exactly with v=DMARC1 (RFC 7489 6.6.3)", () => {
    expect(isDmarcRecord("v=DMARC1; p=none")).toBe(true)
    expect(isDmarcRecord("v = DMARC1; p=none")).toBe(true)
    expect(isDmarcRecord(" v=DMARC1; p=none")).toBe(false)
    expect(isNearDmarcRecord(" v=DMARC1; p=none")).toBe(true)
  })
  it("a record without p is valid (RFC 9989 4.7: treated as p=none), with or without rua", () => {
    for (const record of ["v=DMARC1; rua=mailto:a@example.com", "v=DMARC1", "v=DMARC1; sp=reject"]) {
      const parsed = parseDmarc(record)
      expect(parsed.errors).toEqual([])
      expect(parsed.p).toBeNull()
    }
  })
})

describe("parseDmarc: properties", () => {
  it("never throws and positions lie within the record", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: fc.constantFrom("v", "=", ";", "p", " ", "!", ",", "a", "@", ":") })
        ),
        (s) => {
          const parsed = parseDmarc(s)
          for (const e of parsed.errors) {
            expect(e.position).toBeGreaterThanOrEqual(0)
            expect(e.position).toBeLessThanOrEqual(s.length)
          }
        }
      ),
      { numRuns: runs(2000) }
    )
  })

  it("a tag's position points at its name", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const t of parseDmarc(s).tags)
          expect(s.slice(t.position).toLowerCase().startsWith(t.name)).toBe(true)
      })
    )
  })

  it("recognises DMARC records only by the v=DMARC1 prefix", () => {
    expect(isDmarcRecord("v=DMARC1; p=none")).toBe(true)
    expect(isDmarcRecord("v=DMARC1")).toBe(true)
    expect(isDmarcRecord("v=DMARC10; p=none")).toBe(false)
    expect(isDmarcRecord("v=spf1 -all")).toBe(false)
  })
})
