import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  type CaaRecord,
  climb,
  coveringName,
  decide,
  parseCaaIssuer,
  parseIssueValue,
  relevantSet
} from "../../src/records/CaaRecord.ts"

const issue = (value: string, tag = "issue", flags = 0): CaaRecord => ({ flags, tag, value })

describe("the CAA climb (RFC 8659 §3)", () => {
  it("asks the name and each parent, not the root; a wildcard from its base", () => {
    expect(climb("www.shop.example.com.")).toEqual([
      "www.shop.example.com",
      "shop.example.com",
      "example.com",
      "com"
    ])
    expect(climb("*.example.com")).toEqual(["example.com", "com"])
  })

  it("takes the nearest non-empty set; a failed lookup before it leaves the answer unknown", () => {
    const records = [issue("letsencrypt.org")]
    expect(
      relevantSet([
        { name: "www.example.com", outcome: "records", records: [] },
        { name: "example.com", outcome: "records", records },
        { name: "com", outcome: "unknown", reason: "timeout" }
      ])
    ).toEqual({ kind: "found", at: "example.com", records })
    expect(
      relevantSet([
        { name: "www.example.com", outcome: "unknown", reason: "servfail" },
        { name: "example.com", outcome: "records", records }
      ])
    ).toMatchObject({ kind: "unknown", at: "www.example.com" })
    expect(relevantSet([{ name: "example.com", outcome: "records", records: [] }])).toEqual({ kind: "none" })
  })
})

describe("issue values (RFC 8659 §4.2)", () => {
  it("reads the issuer domain name and parameters; `;` alone names no issuer", () => {
    expect(parseIssueValue(" LetsEncrypt.org ; accounturi=https://x/1 ")).toEqual({
      issuer: "letsencrypt.org",
      parameters: [["accounturi", "https://x/1"]]
    })
    expect(parseIssueValue(";")).toEqual({ issuer: null, parameters: [] })
    expect(parseIssueValue("not a domain!")).toBeNull()
  })
})

describe("decide (RFC 8659 §4)", () => {
  const le = ["letsencrypt.org"]
  it("permits a listed CA, forbids another, compares tags and names without case", () => {
    expect(decide([issue("LETSENCRYPT.ORG", "ISSUE")], le, false).verdict).toBe("permitted")
    expect(decide([issue("digicert.com")], le, false).verdict).toBe("forbidden")
  })

  it("issuewild decides for a wildcard certificate, issue for the name itself (§4.3)", () => {
    const set = [issue("letsencrypt.org"), issue("digicert.com", "issuewild")]
    expect(decide(set, le, false)).toMatchObject({ verdict: "permitted", tag: "issue" })
    expect(decide(set, le, true)).toMatchObject({ verdict: "forbidden", tag: "issuewild" })
    // without issuewild, issue governs wildcards too
    expect(decide([issue("letsencrypt.org")], le, true)).toMatchObject({ verdict: "permitted", tag: "issue" })
  })

  it("an empty issuer forbids every CA, known or not", () => {
    expect(decide([issue(";")], le, false).verdict).toBe("forbidden")
    expect(decide([issue(";")], [], false).verdict).toBe("forbidden")
  })

  it("a critical property it does not understand forbids issuance (§4.1); a non-critical one is ignored", () => {
    expect(decide([issue("letsencrypt.org"), issue("x", "futuretag", 128)], le, false).verdict).toBe(
      "forbidden"
    )
    expect(decide([issue("letsencrypt.org"), issue("x", "futuretag", 0)], le, false).verdict).toBe(
      "permitted"
    )
  })

  it("no issue property restricts nothing; an unknown CA against a restriction is unknown", () => {
    expect(decide([issue("mailto:a@b", "iodef")], [], false).verdict).toBe("permitted")
    expect(decide([issue("letsencrypt.org")], [], false).verdict).toBe("unknown")
  })

  const arbRecord = fc.record({
    flags: fc.constantFrom(0, 128, 1),
    tag: fc.constantFrom("issue", "ISSUE", "issuewild", "iodef", "other"),
    value: fc.oneof(fc.constantFrom("letsencrypt.org", "digicert.com", ";", "pki.goog; x=y"), fc.string())
  })

  it("is total, and a CA is never permitted where the records name no issuer it answers to (property)", () =>
    fc.assert(
      fc.property(fc.array(arbRecord, { maxLength: 6 }), fc.boolean(), (records, wildcard) => {
        const d = decide(records, le, wildcard)
        const names = (tag: string) =>
          records.some(
            (r) => r.tag.toLowerCase() === tag && parseIssueValue(r.value)?.issuer === "letsencrypt.org"
          )
        // Permitted by a property: one of that property's records names the CA.
        if (d.verdict === "permitted" && d.tag !== null) expect(names(d.tag)).toBe(true)
        // Permitted by none: no property that governs this certificate exists.
        if (d.verdict === "permitted" && d.tag === null)
          expect(
            records.some(
              (r) => r.tag.toLowerCase() === "issue" || (wildcard && r.tag.toLowerCase() === "issuewild")
            )
          ).toBe(false)
        // Adding the CA's own issue record never turns a permitted CA forbidden
        if (d.verdict === "permitted" && !wildcard)
          expect(decide([...records, issue("letsencrypt.org")], le, false).verdict).toBe("permitted")
      })
    ))
})

describe("coveringName", () => {
  it("prefers the exact name, else a wildcard one label up", () => {
    expect(coveringName("www.example.com", ["example.com", "www.example.com"])).toBe("www.example.com")
    expect(coveringName("mx.example.com", ["*.example.com"])).toBe("*.example.com")
    expect(coveringName("a.b.example.com", ["*.example.com"])).toBeNull()
  })
})

describe("CAA_ISSUERS entries", () => {
  it("reads `Issuer Name=domain[ domain]`, refuses anything else", () => {
    expect(parseCaaIssuer("Domain Audit World=world-ca.test")).toEqual({
      name: "Domain Audit World",
      identifiers: ["world-ca.test"]
    })
    expect(parseCaaIssuer("Acme CA=acme.example Other.Example")?.identifiers).toEqual([
      "acme.example",
      "other.example"
    ])
    expect(parseCaaIssuer("no equals")).toBeNull()
    expect(parseCaaIssuer("Name=")).toBeNull()
  })
})
