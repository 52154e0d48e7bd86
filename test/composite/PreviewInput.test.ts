import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import { readPreview } from "../../src/composite/PreviewInput.ts"
import { runs } from "../support/runs.ts"

const D = "example.com"
const refusal = (changes: Parameters<typeof readPreview>[1]) =>
  Either.match(readPreview(D, changes), { onLeft: (m) => m, onRight: () => null })

describe("readPreview", () => {
  it("takes sound records, @ as the domain, and removals", () => {
    const plan = readPreview(D, {
      records: [
        { name: "@", type: "txt", value: "v=spf1 mx -all" },
        {
          name: "_dmarc.example.com.",
          type: "TXT",
          value: '"v=DMARC1; p=reject; " "rua=mailto:d@example.com"'
        },
        { name: "example.com", type: "CAA", value: '0 issue "letsencrypt.org"' },
        { name: "example.com", type: "MX", value: "10 mail.example.com." },
        { name: "_25._tcp.mail.example.com", type: "TLSA", value: `3 1 1 ${"ab".repeat(32)}` }
      ],
      remove: [{ name: "www.example.com", type: "CNAME" }]
    })
    expect(Either.isRight(plan)).toBe(true)
    if (Either.isRight(plan)) {
      expect(plan.right.records.map((r) => `${r.name} ${r.type}`)).toEqual([
        "example.com TXT",
        "_dmarc.example.com TXT",
        "example.com CAA",
        "example.com MX",
        "_25._tcp.mail.example.com TLSA"
      ])
      expect(plan.right.remove).toEqual([{ name: "www.example.com", type: "CNAME" }])
    }
  })

  it("refuses names outside the domain, naming them", () => {
    expect(
      refusal({ records: [{ name: "_dmarc.example.org", type: "TXT", value: "v=DMARC1; p=none" }] })
    ).toContain("_dmarc.example.org")
    expect(refusal({ records: [], remove: [{ name: "notexample.com", type: "TXT" }] })).toContain(
      "notexample.com"
    )
  })

  it("refuses a value with the parser's message, naming the record", () => {
    const dmarc = refusal({
      records: [{ name: "_dmarc.example.com", type: "TXT", value: "v=DMARC1; p=maybe" }]
    })
    expect(dmarc).toMatch(/^records\[0\] \(_dmarc\.example\.com TXT\): DMARC: /)
    expect(refusal({ records: [{ name: "@", type: "TXT", value: "v=spf1 include: -all" }] })).toMatch(/SPF: /)
    expect(refusal({ records: [{ name: "@", type: "CAA", value: '0 issue "not a domain!"' }] })).toMatch(
      /CAA/
    )
    expect(refusal({ records: [{ name: "@", type: "A", value: "192.0.2.300" }] })).toContain(
      "not an IPv4 address"
    )
    expect(refusal({ records: [{ name: "x.example.com", type: "TLSA", value: "3 1 1 abcd" }] })).toContain(
      "32 bytes"
    )
    expect(refusal({ records: [{ name: "@", type: "DS", value: "1 13 2 ab" }] })).toContain(
      "cannot be previewed"
    )
  })

  it("refuses a CNAME beside other data, at the apex, and more than 50 records", () => {
    expect(
      refusal({
        records: [
          { name: "www.example.com", type: "CNAME", value: "web.example.net." },
          { name: "www.example.com", type: "A", value: "192.0.2.1" }
        ]
      })
    ).toContain("RFC 2181 10.1")
    expect(refusal({ records: [{ name: "@", type: "CNAME", value: "web.example.net." }] })).toContain("alias")
    const many = Array.from({ length: 51 }, (_, i) => ({
      name: `h${i}.example.com`,
      type: "A",
      value: "192.0.2.1"
    }))
    expect(refusal({ records: many })).toContain("at most 50")
  })

  it("takes an MTA-STS policy file and refuses a broken one or another URL", () => {
    const url = "https://mta-sts.example.com/.well-known/mta-sts.txt"
    const good = "version: STSv1\nmode: enforce\nmx: mail.example.com\nmax_age: 604800\n"
    expect(refusal({ records: [], files: [{ url, body: good }] })).toBeNull()
    expect(refusal({ records: [], files: [{ url, body: "version: STSv1\nmode: sometimes\n" }] })).toContain(
      "MTA-STS policy"
    )
    expect(refusal({ records: [], files: [{ url: "https://example.com/index.html", body: "x" }] })).toContain(
      "is not example.com's MTA-STS policy"
    )
  })

  it("never throws, whatever it is given (property)", () => {
    const text = fc.string({ maxLength: 40 })
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: text,
            type: fc.oneof(text, fc.constantFrom("TXT", "A", "MX", "CAA", "TLSA")),
            value: text
          }),
          {
            maxLength: 5
          }
        ),
        fc.array(fc.record({ name: text, type: text }), { maxLength: 3 }),
        (records, remove) => {
          const out = readPreview(D, { records, remove })
          expect(Either.isEither(out)).toBe(true)
        }
      ),
      { numRuns: runs(200) }
    )
  })
})
