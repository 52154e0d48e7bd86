import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { parseLine, stripComment } from "../../src/batch/Lines.ts"
import { runs } from "../support/runs.ts"

describe("parseLine", () => {
  it.each([
    ["perfect.com", "perfect.com"],
    ["  PERFECT.com.  ", "perfect.com"],
    ["https://perfect.com/path?q=1#frag", "perfect.com"],
    ["http://www.unsigned.net:8443/", "www.unsigned.net"],
    ["perfect.com # our main domain", "perfect.com"],
    ["perfect.com\t#tab comment", "perfect.com"],
    ["\uFEFFperfect.com\r", "perfect.com"],
    ["bücher.de", "xn--bcher-kva.de"]
  ])("reads %j as the domain %s", (raw, domain) => {
    expect(parseLine(raw)).toEqual({ _tag: "Domain", domain })
  })

  it.each(["", "   ", "# a comment", "   # indented comment", "\r", "\uFEFF"])("skips %j", (raw) => {
    expect(parseLine(raw)).toEqual({ _tag: "Skip" })
  })

  it.each([
    ["not a domain", "' '"],
    ["127.0.0.1", "IP addresses"],
    ["localhost", "single label"],
    ["co.uk", "public suffix"],
    ["perfect.com, unsigned.net", "','"]
  ])("rejects %j, saying why (%s)", (raw, why) => {
    const line = parseLine(raw)
    expect(line._tag).toBe("Invalid")
    if (line._tag === "Invalid") {
      expect(line.reason).toContain(why)
      expect(line.text).toBe(raw.trim())
    }
  })

  it("keeps a # inside a word (a URL's fragment is not a comment)", () => {
    expect(stripComment("https://perfect.com/#top")).toBe("https://perfect.com/#top")
    expect(stripComment("perfect.com #x")).toBe("perfect.com")
  })

  it("is total, and a domain it returns reads back as itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (raw) => {
        const line = parseLine(raw)
        expect(["Skip", "Domain", "Invalid"]).toContain(line._tag)
        if (line._tag === "Domain") expect(parseLine(line.domain)).toEqual(line)
      }),
      { numRuns: runs(500) }
    )
  })

  it("reads the same domain from any case, trailing dot, scheme and comment", () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/)
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("com", "net", "org", "nl"),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (labels, tld, upper, dot, url) => {
          const domain = [...labels, tld].join(".")
          let raw = upper ? domain.toUpperCase() : domain
          if (dot) raw += "."
          if (url) raw = `https://${raw}/index.html`
          expect(parseLine(`  ${raw}  # note`)).toEqual({ _tag: "Domain", domain })
        }
      )
    )
  })
})
