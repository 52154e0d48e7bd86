import { describe, expect, it } from "vitest"
import * as DnsPacket from "dns-packet"
import * as fc from "fast-check"
import {
  decodeNsec3Param,
  encodeNsec3Param,
  formatData,
  parseData,
  reverseName,
  toRecord,
  tokenize
} from "../../src/net/DnsWire.ts"

describe("DnsWire", () => {
  it("decodes NSEC3PARAM, which dns-packet leaves raw", () => {
    const packet = DnsPacket.decode(
      DnsPacket.encode({
        type: "response",
        id: 1,
        answers: [
          {
            type: "NSEC3PARAM",
            name: "example.org",
            ttl: 60,
            data: encodeNsec3Param({ hashAlgorithm: 1, flags: 0, iterations: 10, salt: "aabbccddeeff0011" })
          } as never
        ]
      })
    )
    const rec = toRecord(packet.answers![0]!)
    expect(rec.data).toEqual({ hashAlgorithm: 1, flags: 0, iterations: 10, salt: "aabbccddeeff0011" })
    expect(rec.text).toBe("1 0 10 aabbccddeeff0011")
    expect(decodeNsec3Param(Buffer.from([1, 0, 0, 0, 0]))).toEqual({
      hashAlgorithm: 1,
      flags: 0,
      iterations: 0,
      salt: ""
    })
    expect(decodeNsec3Param(Buffer.from([1, 0, 0, 0, 4, 1]))).toBeUndefined()
  })

  it("NSEC3PARAM encode/decode round-trips (property)", () =>
    fc.assert(
      fc.property(
        fc.nat(255),
        fc.nat(255),
        fc.nat(65535),
        fc.uint8Array({ maxLength: 255 }),
        (h, f, i, salt) => {
          const p = { hashAlgorithm: h, flags: f, iterations: i, salt: Buffer.from(salt).toString("hex") }
          expect(decodeNsec3Param(encodeNsec3Param(p))).toEqual(p)
        }
      )
    ))

  it("formats presentation text like dig", () => {
    expect(formatData("MX", { priority: 10, exchange: "mx.example.com" })).toBe("10 mx.example.com.")
    expect(formatData("MX", { priority: 0, exchange: "" })).toBe("0 .")
    expect(formatData("TXT", ['say "hi"', "back\\slash"])).toBe('"say \\"hi\\"" "back\\\\slash"')
    expect(formatData("CAA", { flags: 0, tag: "issue", value: "ca.test" })).toBe('0 issue "ca.test"')
    expect(parseData("RRSIG", "A 13 2 300 20240101000000 20231201000000 1 example.com. c2ln")).toMatchObject({
      expiration: Date.UTC(2024, 0, 1) / 1000
    })
  })

  it("TXT presentation round-trips through parse (property)", () =>
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 4 }), (strings) => {
        expect(parseData("TXT", formatData("TXT", strings))).toEqual(strings)
      })
    ))

  describe("TXT beyond the Basic Multilingual Plane (U+1F600 is two UTF-16 code units, four UTF-8 octets)", () => {
    /** Any text: whole code points of every plane, or user-perceived characters (emoji sequences). */
    const anyText = (minLength: number, maxLength: number) =>
      fc.oneof(
        fc.string({ unit: "binary", minLength, maxLength }),
        fc.string({ unit: "grapheme", minLength, maxLength })
      )
    /** A zone file's quoted string with the character written as itself, only `"` and `\` escaped. */
    const quotedAsIs = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`

    it("reads a character written as itself, or escaped, as that character", () => {
      expect(tokenize('"smile 😀" \\😀 𝄞')).toEqual(["smile 😀", "😀", "𝄞"])
      expect(parseData("TXT", '"v=x1; n=😀"')).toEqual(["v=x1; n=😀"])
      expect(parseData("TXT", `${"x".repeat(253)}😀`)).toEqual(["x".repeat(253), "😀"])
    })

    it("any string round-trips: quoted as itself, and formatted then parsed (property)", () =>
      fc.assert(
        fc.property(anyText(0, 60), (s) => {
          expect(tokenize(quotedAsIs(s))).toEqual([s])
          expect(parseData("TXT", formatData("TXT", [s]))).toEqual([s])
        })
      ))

    it("an unquoted value is cut into strings of at most 255 octets between characters (property)", () =>
      fc.assert(
        fc.property(anyText(60, 300), (s) => {
          // A cut inside a UTF-8 sequence decodes as U+FFFD on both sides: the join would differ.
          const strings = parseData("TXT", `x${s}`) as ReadonlyArray<string>
          expect(strings.join("")).toBe(`x${s}`)
          for (const part of strings) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(255)
        })
      ))
  })

  it("structured types round-trip format → parse (property)", () =>
    fc.assert(
      fc.property(
        fc.nat(65535),
        fc.domain(),
        fc.nat(255),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        (n, host, small, bytes) => {
          const hex = Buffer.from(bytes).toString("hex")
          const cases: Array<[string, unknown]> = [
            ["MX", { priority: n, exchange: host.toLowerCase() }],
            ["SRV", { priority: n, weight: small, port: n, target: host.toLowerCase() }],
            ["DS", { keyTag: n, algorithm: small, digestType: 2, digest: hex.toUpperCase() }],
            ["TLSA", { usage: small, selector: 1, matchingType: 1, certificate: hex }],
            ["NSEC3PARAM", { hashAlgorithm: 1, flags: small, iterations: n, salt: hex }],
            [
              "DNSKEY",
              { flags: 257, protocol: 3, algorithm: small, publicKey: Buffer.from(bytes).toString("base64") }
            ]
          ]
          for (const [type, data] of cases) expect(parseData(type, formatData(type, data))).toEqual(data)
        }
      )
    ))

  it("writes RRSIG times as RFC 4034 3.2 YYYYMMDDHHmmSS in UTC, as Date would (property)", () =>
    fc.assert(
      fc.property(fc.nat(0xffff_ffff), fc.nat(0xffff_ffff), (expiration, inception) => {
        const asDate = (s: number) =>
          new Date(s * 1000)
            .toISOString()
            .replace(/[-:T]/g, "")
            .replace(/\.\d+Z$/, "")
        const data = { typeCovered: "A", algorithm: 13, labels: 2, originalTTL: 300, expiration, inception }
        const text = formatData("RRSIG", {
          ...data,
          keyTag: 1,
          signersName: "example.com",
          signature: "c2ln"
        })
        expect(text).toBe(`A 13 2 300 ${asDate(expiration)} ${asDate(inception)} 1 example.com. c2ln`)
        expect(parseData("RRSIG", text)).toMatchObject(data)
      })
    ))

  it("tokenize and parseData never throw (property)", () =>
    fc.assert(
      fc.property(
        fc.constantFrom(
          "A",
          "MX",
          "TXT",
          "SOA",
          "CAA",
          "SRV",
          "DNSKEY",
          "DS",
          "RRSIG",
          "NSEC3PARAM",
          "TLSA",
          "X"
        ),
        fc.string(),
        (type, text) => {
          tokenize(text)
          const data = parseData(type, text)
          expect(typeof formatData(type, data)).toBe("string")
        }
      )
    ))

  it("builds reverse names (RFC 1035 3.5, RFC 3596 2.5)", () => {
    expect(reverseName("192.0.2.5")).toBe("5.2.0.192.in-addr.arpa")
    expect(reverseName("2001:db8::1")).toBe(
      "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
    )
    expect(reverseName("::ffff:192.0.2.5")?.startsWith("5.0.2.0.0.0.0.c.f.f.f.f")).toBe(true)
    expect(reverseName("256.1.1.1")).toBeUndefined()
    expect(reverseName("example.com")).toBeUndefined()
    fc.assert(fc.property(fc.ipV4(), (ip) => reverseName(ip)?.endsWith(".in-addr.arpa") === true))
    fc.assert(fc.property(fc.ipV6(), (ip) => reverseName(ip)?.split(".").length === 34))
    fc.assert(
      fc.property(fc.string(), (s) => reverseName(s) === undefined || typeof reverseName(s) === "string")
    )
  })
})
