import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { ACME_METHODS, readIssuerProperty, renderIssueValue } from "../../src/records/CaaParameters.ts"
import { parseIssueValue } from "../../src/records/CaaRecord.ts"
import { runs } from "../support/runs.ts"

describe("CAA issuer parameters (RFC 8659 §4.2, RFC 8657)", () => {
  it("reads accounturi and validationmethods", () => {
    const read = readIssuerProperty(
      "letsencrypt.org; accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/123; validationmethods=dns-01,http-01"
    )
    expect(read).toMatchObject({
      issuer: "letsencrypt.org",
      accountUris: ["https://acme-v02.api.letsencrypt.org/acme/acct/123"],
      validationMethods: ["dns-01", "http-01"],
      grammatical: true,
      problems: []
    })
    // CA-specific methods (RFC 8657 §4) and keys with inner hyphens (RFC 8659 §4.2) are fine
    expect(readIssuerProperty("digicert.com; validationmethods=ca-whois; x-y=1").problems).toEqual([])
    expect(readIssuerProperty(";").issuer).toBeNull()
  })

  it("reports each syntax error, and a malformed value permits no CA", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["letsencrypt.org;", /^$/],
      ["letsencrypt.org; a=b;", /ends in ';'/],
      ["letsencrypt.org; novalue", /not key=value/],
      ["letsencrypt.org; bad_key=1", /parameter key/],
      ["letsencrypt.org; a=b c", /holds a space/],
      ["not a domain!", /not an issuer domain name/]
    ]
    for (const [value, problem] of cases) {
      const read = readIssuerProperty(value)
      expect(read.problems.join(" | ")).toMatch(problem)
      expect(parseIssueValue(value) === null).toBe(!read.grammatical)
    }
    expect(parseIssueValue("letsencrypt.org; a=b;")).toBeNull()
  })

  it("flags what RFC 8657 forbids without making the value ungrammatical", () => {
    const read = readIssuerProperty(
      "letsencrypt.org; validationmethods=dns-01,smoke-signal-01; accounturi=no uri"
    )
    expect(read.grammatical).toBe(false) // the space in the URI is a grammar error
    const methods = readIssuerProperty("letsencrypt.org; validationmethods=dns-01,smoke-signal-01")
    expect(methods.grammatical).toBe(true)
    expect(methods.problems).toEqual([expect.stringMatching(/smoke-signal-01.*RFC 8657 §4/)])
    expect(readIssuerProperty("letsencrypt.org; accounturi=acct-1").problems).toEqual([
      expect.stringMatching(/not an absolute URI/)
    ])
    expect(
      readIssuerProperty("letsencrypt.org; accounturi=https://a/1; accounturi=https://a/2").problems
    ).toEqual([expect.stringMatching(/accounturi is given 2 times/)])
  })

  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/)
  const issuer = fc.option(
    fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join(".")),
    { nil: null }
  )
  const parameter = fc.oneof(
    fc.record({ key: label, value: fc.stringMatching(/^[\x21-\x3a\x3c-\x7e]{0,20}$/) }),
    fc.record({
      key: fc.constant("validationmethods"),
      value: fc
        .array(
          fc.oneof(
            fc.constantFrom(...ACME_METHODS),
            label.map((l) => `ca-${l}`)
          ),
          { minLength: 1, maxLength: 3 }
        )
        .map((ms) => ms.join(","))
    }),
    fc.record({ key: fc.constant("accounturi"), value: label.map((l) => `https://acme.example/acct/${l}`) })
  )

  it("reads back what it writes: generated issuer values -> text -> parse (property)", () =>
    fc.assert(
      fc.property(issuer, fc.array(parameter, { maxLength: 4 }), (name, parameters) => {
        const read = readIssuerProperty(renderIssueValue(name, parameters))
        expect(read.grammatical).toBe(true)
        expect(read.issuer).toBe(name)
        expect(read.parameters).toEqual(parameters.map((p) => ({ key: p.key.toLowerCase(), value: p.value })))
        expect(parseIssueValue(renderIssueValue(name, parameters))?.issuer ?? null).toBe(name)
      }),
      { numRuns: runs(200) }
    ))

  it("is total over any text (property)", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const read = readIssuerProperty(text)
        expect(read.grammatical).toBe(read.problems.every((p) => /RFC 8657/.test(p) && !/RFC 8659/.test(p)))
      }),
      { numRuns: runs(300) }
    ))
})
