/** security.txt (RFC 9116): fields, errors, the cleartext-signed form, and round trips through render. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { armorSignature, crc24, dearmor } from "../../src/records/PgpArmor.ts"
import {
  type Field,
  parseRfc3339,
  parseSecurityTxt,
  renderSecurityTxt
} from "../../src/records/SecurityTxtFile.ts"

const VALID = [
  "# Our security contacts",
  "Contact: mailto:security@example.com",
  "Contact: https://example.com/report",
  "Expires: 2027-01-31T12:00:00.000Z",
  "Encryption: https://example.com/pgp.asc",
  "Preferred-Languages: en, nl",
  "Canonical: https://example.com/.well-known/security.txt",
  "Policy: https://example.com/disclosure",
  ""
].join("\r\n")

/** A syntactically valid v4 signature packet (new format, tag 2), not a real signature. */
const PACKET = new Uint8Array([0xc2, 0x05, 0x04, 0x01, 0x08, 0x01, 0x02])

const sign = (text: string) =>
  [
    "-----BEGIN PGP SIGNED MESSAGE-----",
    "Hash: SHA512",
    "",
    ...text.split("\n").map((l) => (l.startsWith("-") ? `- ${l}` : l)),
    armorSignature(PACKET)
  ].join("\n")

describe("parseSecurityTxt", () => {
  it("reads every field of RFC 9116 §2.5, CRLF lines, comments skipped", () => {
    const p = parseSecurityTxt(VALID)
    expect(p.errors).toEqual([])
    expect(p.warnings).toEqual([])
    expect(p.contact).toEqual(["mailto:security@example.com", "https://example.com/report"])
    expect(p.expires).toBe("2027-01-31T12:00:00.000Z")
    expect(p.expiresAt).toBe(Date.UTC(2027, 0, 31, 12))
    expect(p.preferredLanguages).toEqual(["en", "nl"])
    expect(p.canonical).toEqual(["https://example.com/.well-known/security.txt"])
    expect(p.signature).toBeNull()
  })

  it("field names are case-insensitive (§2.4)", () => {
    const p = parseSecurityTxt("contact: mailto:a@example.com\nEXPIRES: 2027-01-01T00:00:00Z\n")
    expect(p.errors).toEqual([])
    expect(p.contact).toEqual(["mailto:a@example.com"])
  })

  it.each([
    ["Expires: 2027-01-01T00:00:00Z\n", "no Contact"],
    ["Contact: mailto:a@example.com\n", "no Expires"],
    ["Contact: mailto:a@example.com\nExpires: 31 Jan 2027\n", "not an RFC 3339"],
    [
      "Contact: mailto:a@example.com\nExpires: 2027-01-01T00:00:00Z\nExpires: 2028-01-01T00:00:00Z\n",
      "at most once"
    ],
    ["Contact: http://example.com/report\nExpires: 2027-01-01T00:00:00Z\n", "does not use https"],
    ["Contact: a@example.com\nExpires: 2027-01-01T00:00:00Z\n", "is not a URI"],
    [
      "Contact: mailto:a@example.com\nExpires: 2027-01-01T00:00:00Z\nPreferred-Languages: en\nPreferred-Languages: nl\n",
      "at most once"
    ]
  ])("%j is invalid: %s", (text, why) => {
    expect(parseSecurityTxt(text).errors.join("; ")).toContain(why)
  })

  it("a line that is neither a field nor a comment is a warning, not an error", () => {
    const p = parseSecurityTxt("Contact: mailto:a@example.com\nExpires: 2027-01-01T00:00:00Z\nhello world\n")
    expect(p.errors).toEqual([])
    expect(p.warnings[0]).toContain("line 3")
  })

  it("an HTML page has no fields", () => {
    const p = parseSecurityTxt("<!doctype html>\n<html><body>Not found</body></html>\n")
    expect(p.fields).toEqual([])
    expect(p.errors.length).toBe(2)
  })

  it("reads the signed form: the inner fields, a well-formed block, the Hash header (§2.3)", () => {
    const p = parseSecurityTxt(sign(VALID.replaceAll("\r\n", "\n")))
    expect(p.errors).toEqual([])
    expect(p.contact.length).toBe(2)
    expect(p.signature).toEqual({ wellFormed: true, hash: "SHA512", problems: [] })
  })

  it("a broken checksum, a missing block or trailing text makes the signature malformed", () => {
    const good = sign("Contact: mailto:a@example.com\nExpires: 2027-01-01T00:00:00Z")
    const badSum = good.replace(/\n=(....)\n/, "\n=AAAA\n")
    expect(parseSecurityTxt(badSum).signature?.problems.join()).toContain("checksum")
    const noBlock = good.slice(0, good.indexOf("-----BEGIN PGP SIGNATURE-----"))
    expect(parseSecurityTxt(noBlock).signature?.wellFormed).toBe(false)
    expect(
      parseSecurityTxt(`${good}Contact: mailto:evil@example.net\n`).signature?.problems.join()
    ).toContain("after the signature")
    // The unsigned trailing field is not read as part of the file.
    expect(parseSecurityTxt(`${good}Contact: mailto:evil@example.net\n`).contact).toEqual([
      "mailto:a@example.com"
    ])
  })

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        parseSecurityTxt(text)
        parseSecurityTxt(
          `-----BEGIN PGP SIGNED MESSAGE-----\n${text}\n-----BEGIN PGP SIGNATURE-----\n${text}`
        )
      })
    )
  })
})

const uri = fc.webUrl({ validSchemes: ["https"] })
// RFC 6068 2: a local part's characters outside the URI's own are percent-encoded (an address
// such as "//x|y@example.com" would otherwise read as "mailto:" with an authority, not a URI).
const mailto = fc.emailAddress().map((a) => {
  const at = a.lastIndexOf("@")
  return `mailto:${encodeURIComponent(a.slice(0, at))}${a.slice(at)}`
})
const date = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString())
const language = fc.constantFrom("en", "nl", "de", "fr", "pt-BR")
const fields: fc.Arbitrary<ReadonlyArray<Field>> = fc
  .record({
    contact: fc.array(fc.oneof(mailto, uri), { minLength: 1, maxLength: 3 }),
    expires: date,
    encryption: fc.array(uri, { maxLength: 2 }),
    canonical: fc.array(uri, { maxLength: 2 }),
    policy: fc.array(uri, { maxLength: 1 }),
    languages: fc.option(fc.array(language, { minLength: 1, maxLength: 3 }))
  })
  .chain((r) =>
    fc.shuffledSubarray(
      [
        ...r.contact.map((value) => ({ name: "Contact", value })),
        { name: "Expires", value: r.expires },
        ...r.encryption.map((value) => ({ name: "Encryption", value })),
        ...r.canonical.map((value) => ({ name: "Canonical", value })),
        ...r.policy.map((value) => ({ name: "Policy", value })),
        ...(r.languages === null ? [] : [{ name: "Preferred-Languages", value: r.languages.join(", ") }])
      ],
      { minLength: 0 }
    )
  )
  .map((fs) => [...fs])
  .filter((fs) => fs.some((f) => f.name === "Contact") && fs.some((f) => f.name === "Expires"))

describe("render then parse", () => {
  it("gives back the same fields, with LF or CRLF and comments", () => {
    fc.assert(
      fc.property(fields, fc.constantFrom("\n" as const, "\r\n" as const), (fs, eol) => {
        const p = parseSecurityTxt(renderSecurityTxt(fs, { eol, comments: ["contacts"] }))
        expect(p.fields).toEqual(fs)
        expect(p.errors).toEqual([])
        expect(p.expiresAt).toBe(Date.parse(fs.find((f) => f.name === "Expires")!.value))
        expect(p.contact).toEqual(fs.filter((f) => f.name === "Contact").map((f) => f.value))
      })
    )
  })

  it("gives back the same fields through the signed form", () => {
    fc.assert(
      fc.property(fields, (fs) => {
        const p = parseSecurityTxt(sign(renderSecurityTxt(fs)))
        expect(p.fields).toEqual(fs)
        expect(p.signature?.wellFormed).toBe(true)
      })
    )
  })
})

describe("armor", () => {
  it("CRC-24 of the empty input is the initial value; armor round-trips any packet", () => {
    expect(crc24(new Uint8Array())).toBe(0xb704ce)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (tail) => {
        const bytes = new Uint8Array([0xc2, ...tail])
        const { bytes: back, problems } = dearmor(armorSignature(bytes).split("\n"))
        expect(problems).toEqual([])
        expect([...back]).toEqual([...bytes])
      })
    )
  })
})

describe("parseRfc3339", () => {
  it.each(["2027-01-31T12:00:00Z", "2027-01-31t12:00:00+01:00", "2027-01-31T12:00:00.5-05:30"])("%s", (t) =>
    expect(parseRfc3339(t)).not.toBeNull()
  )
  it.each(["2027-01-31", "2027-01-31 12:00:00Z", "2027-13-01T00:00:00Z", "Sun, 31 Jan 2027 12:00:00 GMT"])(
    "refuses %s",
    (t) => expect(parseRfc3339(t)).toBeNull()
  )
})
