/** The query packet asks the question it was given, whatever the type (RFC 1035 4.1.2). */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { RecordTypes } from "../../src/net/DnsTypes.ts"
import { typeNumber } from "../../src/net/DnsDecode.ts"
import { encodeQuery } from "../../src/net/DnsTransport.ts"

/** The question's type and class, read from the packet's bytes after the header and the name. */
const questionOf = (packet: Buffer) => {
  let offset = 12
  while (packet[offset]! !== 0) offset += packet[offset]! + 1
  return { type: packet.readUInt16BE(offset + 1), class: packet.readUInt16BE(offset + 3) }
}

describe("encodeQuery", () => {
  it("writes every type we ask by its number, HTTPS and SVCB (RFC 9460) included", () =>
    fc.assert(
      fc.property(fc.constantFrom(...RecordTypes), fc.boolean(), (type, cd) => {
        const packet = encodeQuery(1, { name: "example.com", type, checkingDisabled: cd })
        expect(questionOf(packet)).toEqual({ type: typeNumber(type), class: 1 })
      })
    ))

  it("writes HTTPS as 65 and SVCB as 64", () => {
    expect(
      questionOf(encodeQuery(7, { name: "a.example", type: "HTTPS", checkingDisabled: false })).type
    ).toBe(65)
    expect(
      questionOf(encodeQuery(7, { name: "a.example", type: "SVCB", checkingDisabled: false })).type
    ).toBe(64)
  })
})
