/** SVCB/HTTPS rdata (RFC 9460 2.2) and its SvcParams (7): decoding, refusal of malformed records, round trip. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatIp, parseIp } from "../../src/records/IpAddress.ts"
import { decodeSvcb, encodeSvcb, protocolSet, type SvcbRecord } from "../../src/records/SvcbRecord.ts"

const base: SvcbRecord = {
  priority: 1,
  target: ".",
  mandatory: [],
  alpn: [],
  noDefaultAlpn: false,
  port: null,
  ipv4hint: [],
  ipv6hint: [],
  ech: null,
  other: []
}

describe("decodeSvcb", () => {
  it("reads RFC 9460 Appendix D.2's ServiceMode example with alpn, port and hints", () => {
    // 16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1 (Figure 8, wire form).
    const hex =
      "0010" +
      "03666f6f076578616d706c65036f726700" +
      "0000000400010004" +
      "000100090268320568332d3139" +
      "00040004c0000201"
    expect(decodeSvcb(hex)).toEqual({
      ...base,
      priority: 16,
      target: "foo.example.org",
      mandatory: [1, 4],
      alpn: ["h2", "h3-19"],
      ipv4hint: ["192.0.2.1"]
    })
  })

  it("AliasMode: priority 0 and a target", () =>
    expect(decodeSvcb("0000" + "03777777076578616d706c6503636f6d00")).toMatchObject({
      priority: 0,
      target: "www.example.com"
    }))

  it.each([
    ["keys out of order", "0001" + "00" + "00030002" + "01bb" + "00010003" + "026832"],
    ["a key repeated", "0001" + "00" + "00030002" + "01bb" + "00030002" + "01bb"],
    ["truncated", "0001" + "00" + "000300"],
    ["ipv4hint of 3 octets", "0001" + "00" + "00040003" + "c00002"],
    ["an empty alpn id", "0001" + "00" + "00010001" + "00"],
    ["no-default-alpn with a value", "0001" + "00" + "00020001" + "00"],
    ["not hex", "zz"]
  ])("refuses %s", (_, hex) => expect(decodeSvcb(hex)).toHaveProperty("error"))

  it("is total on any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        decodeSvcb(Buffer.from(bytes).toString("hex"))
      })
    )
  })

  const v4 = fc.ipV4()
  const v6 = fc.ipV6().map((a) => formatIp(parseIp(a)!))
  const alpnId = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(..."abcdefgh0123456789/.-") })
  const record: fc.Arbitrary<SvcbRecord> = fc.record({
    priority: fc.integer({ min: 0, max: 65535 }),
    target: fc.oneof(fc.constant("."), fc.domain()),
    mandatory: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }).map((a) => a.sort()),
    alpn: fc.array(alpnId, { maxLength: 4 }),
    noDefaultAlpn: fc.boolean(),
    port: fc.option(fc.integer({ min: 0, max: 65535 }), { nil: null }),
    ipv4hint: fc.array(v4, { maxLength: 3 }),
    ipv6hint: fc.array(v6, { maxLength: 3 }),
    ech: fc.option(
      fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b).toString("base64")),
      { nil: null }
    ),
    other: fc
      .uniqueArray(fc.integer({ min: 7, max: 65535 }), { maxLength: 2 })
      .chain((keys) =>
        fc.tuple(
          ...keys
            .sort((a, b) => a - b)
            .map((key) =>
              fc.uint8Array({ maxLength: 8 }).map((b) => ({ key, value: Buffer.from(b).toString("hex") }))
            )
        )
      )
  })

  it("round trip: encode then decode gives the record back", () => {
    fc.assert(
      fc.property(record, (r) => {
        expect(decodeSvcb(encodeSvcb(r))).toEqual(r)
      })
    )
  })
})

describe("protocolSet (7.1.1)", () => {
  it("adds http/1.1 unless no-default-alpn", () => {
    expect(protocolSet({ ...base, alpn: ["h2"] })).toEqual(["h2", "http/1.1"])
    expect(protocolSet({ ...base, alpn: ["h3"], noDefaultAlpn: true })).toEqual(["h3"])
  })
})
