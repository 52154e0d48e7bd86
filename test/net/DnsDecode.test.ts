import { describe, expect, it } from "vitest"
import * as DnsPacket from "dns-packet"
import * as fc from "fast-check"
import { decodeReply } from "../../src/net/DnsDecode.ts"
import { encodeNsec3Param, toRecord } from "../../src/net/DnsWire.ts"

const name = fc.domain().map((d) => d.toLowerCase())
const bytes = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b))
const u16 = fc.nat(65535)
const u8 = fc.nat(255)
const u32 = fc.nat(0xffffffff)

/** Records dns-packet can encode, with our expected decoding = dns-packet decode + toRecord. */
const answer: fc.Arbitrary<DnsPacket.Answer> = fc.oneof(
  fc.record({ type: fc.constant("A" as const), name, ttl: u32, data: fc.ipV4() }),
  fc.record({ type: fc.constant("AAAA" as const), name, ttl: u32, data: fc.ipV6() }),
  fc.record({
    type: fc.constantFrom("NS" as const, "CNAME" as const, "PTR" as const),
    name,
    ttl: u32,
    data: name
  }),
  fc.record({
    type: fc.constant("MX" as const),
    name,
    ttl: u32,
    data: fc.record({ preference: u16, exchange: name })
  }),
  fc.record({
    type: fc.constant("TXT" as const),
    name,
    ttl: u32,
    data: fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 3 })
  }),
  fc.record({
    type: fc.constant("SOA" as const),
    name,
    ttl: u32,
    data: fc.record({
      mname: name,
      rname: name,
      serial: u32,
      refresh: u32,
      retry: u32,
      expire: u32,
      minimum: u32
    })
  }),
  fc.record({
    type: fc.constant("CAA" as const),
    name,
    ttl: u32,
    data: fc.record({
      flags: fc.constantFrom(0, 128),
      tag: fc.constantFrom("issue" as const, "iodef" as const),
      value: fc.string({ maxLength: 40 })
    })
  }),
  fc.record({
    type: fc.constant("SRV" as const),
    name,
    ttl: u32,
    data: fc.record({ priority: u16, weight: u16, port: u16, target: name })
  }),
  fc.record({
    type: fc.constant("DNSKEY" as const),
    name,
    ttl: u32,
    data: fc.record({ flags: u16, algorithm: u8, key: bytes })
  }),
  fc.record({
    type: fc.constant("DS" as const),
    name,
    ttl: u32,
    data: fc.record({ keyTag: u16, algorithm: u8, digestType: u8, digest: bytes })
  }),
  fc.record({
    type: fc.constant("RRSIG" as const),
    name,
    ttl: u32,
    data: fc.record({
      typeCovered: fc.constantFrom("A", "DNSKEY", "SOA", "TXT"),
      algorithm: u8,
      labels: u8,
      originalTTL: u32,
      expiration: u32,
      inception: u32,
      keyTag: u16,
      signersName: name,
      signature: bytes
    })
  }),
  fc.record({
    type: fc.constant("TLSA" as const),
    name,
    ttl: u32,
    data: fc.record({ usage: u8, selector: u8, matchingType: u8, certificate: bytes })
  }),
  fc
    .record({
      name,
      ttl: u32,
      p: fc.record({
        hashAlgorithm: u8,
        flags: u8,
        iterations: u16,
        salt: bytes.map((b) => b.toString("hex"))
      })
    })
    .map(
      ({ name, ttl, p }) =>
        ({ type: "NSEC3PARAM", name, ttl, data: encodeNsec3Param(p) }) as unknown as DnsPacket.Answer
    )
)

const plain = (r: { name: string; type: string; ttl: number; data: unknown; text: string }) => ({
  name: r.name,
  type: r.type,
  ttl: r.ttl,
  data: r.data,
  text: r.text
})

describe("decodeReply", () => {
  it("decodes exactly what dns-packet decodes, into our shapes (differential property)", () =>
    fc.assert(
      fc.property(
        fc.array(answer, { maxLength: 5 }),
        fc.array(answer, { maxLength: 2 }),
        u16,
        (answers, authorities, id) => {
          const buf = DnsPacket.encode({
            type: "response",
            id,
            flags: DnsPacket.AUTHENTIC_DATA | DnsPacket.RECURSION_AVAILABLE,
            questions: [{ type: "A", name: "example.com", class: "IN" }],
            answers,
            authorities
          })
          const ours = decodeReply(buf)
          const theirs = DnsPacket.decode(buf)
          expect(ours.id).toBe(id)
          expect(ours.ad).toBe(true)
          expect(ours.question).toEqual({ name: "example.com", type: 1, class: 1 })
          expect(ours.answers.map(plain)).toEqual((theirs.answers ?? []).map(toRecord).map(plain))
          expect(ours.authority.map(plain)).toEqual((theirs.authorities ?? []).map(toRecord).map(plain))
        }
      )
    ))

  it("reads a reply in place among other octets as it reads it alone, and never past its end (property)", () =>
    fc.assert(
      fc.property(
        fc.array(answer, { maxLength: 4 }),
        fc.array(answer, { maxLength: 2 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 40 }),
        (answers, authorities, before, after) => {
          const msg = DnsPacket.encode({
            type: "response",
            id: 7,
            flags: DnsPacket.RECURSION_AVAILABLE,
            questions: [{ type: "TXT", name: "example.com", class: "IN" }],
            answers,
            authorities
          })
          // As a pipelined read holds it: other replies' octets before and after (RFC 7766 6.2.1.1).
          const buf = Buffer.concat([Buffer.from(before), msg, Buffer.from(after)])
          const inPlace = decodeReply(buf, before.length, before.length + msg.length)
          const alone = decodeReply(msg)
          expect(inPlace.question).toEqual(alone.question)
          expect(inPlace.answers.map(plain)).toEqual(alone.answers.map(plain))
          expect(inPlace.authority.map(plain)).toEqual(alone.authority.map(plain))
          // Cut one octet short, the octets after it must not complete it.
          if (answers.length + authorities.length > 0)
            expect(() => decodeReply(buf, before.length, before.length + msg.length - 1)).toThrow()
        }
      )
    ))

  it("throws (never loops) on truncated, looping or arbitrary bytes (property)", () => {
    const loop = Buffer.from([0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1])
    expect(() => decodeReply(loop)).toThrow(/loop/)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        try {
          decodeReply(Buffer.from(b))
        } catch (e) {
          expect(e).toBeInstanceOf(Error)
        }
      })
    )
  })
})

describe("decodeReply name compression", () => {
  // RFC 1035 4.1.4: owners and rdata point back at the question and at suffixes of other names.
  const label = (s: string) => [s.length, ...Buffer.from(s)]
  const u16b = (n: number) => [n >> 8, n & 0xff]
  const rr = (owner: Array<number>, type: number, rdata: Array<number>) => [
    ...owner,
    ...u16b(type),
    ...u16b(1),
    0,
    0,
    0,
    60,
    ...u16b(rdata.length),
    ...rdata
  ]
  const header = [0, 1, 0x81, 0x80, 0, 1, 0, 4, 0, 0, 0, 0]
  const question = [...label("WWW"), ...label("Example"), ...label("com"), 0, 0, 1, 0, 1]
  // Offsets: "www" at 12, "example" at 16, "com" at 24.
  const a = rr([0xc0, 12], 1, [192, 0, 2, 1])
  const cnameAt = header.length + question.length + a.length
  const cname = rr([...label("mail"), 0xc0, 16], 5, [0xc0, 12])
  const mx = rr([0xc0, cnameAt], 15, [0, 10, ...label("mx"), 0xc0, 24])
  const ns = rr([0xc0, 24], 2, [...label("ns1"), 0xc0, cnameAt])
  const buf = Buffer.from([...header, ...question, ...a, ...cname, ...mx, ...ns])

  it("follows pointers to whole names and to suffixes, as dns-packet does", () => {
    const ours = decodeReply(buf)
    expect(ours.question).toEqual({ name: "www.example.com", type: 1, class: 1 })
    expect(ours.answers.map((r) => [r.name, r.type, r.data])).toEqual([
      ["www.example.com", "A", "192.0.2.1"],
      ["mail.example.com", "CNAME", "www.example.com"],
      ["mail.example.com", "MX", { priority: 10, exchange: "mx.com" }],
      ["com", "NS", "ns1.mail.example.com"]
    ])
    const theirs = DnsPacket.decode(buf)
    expect(ours.answers.map(plain)).toEqual(
      (theirs.answers ?? []).map(toRecord).map((r) => ({ ...plain(r), name: r.name.toLowerCase() }))
    )
    // Decoding twice gives the same (the memo of names is per reply).
    expect(decodeReply(buf).answers.map(plain)).toEqual(ours.answers.map(plain))
  })
})

describe("decodeReply TXT character-strings", () => {
  const txtReply = (strings: ReadonlyArray<Buffer>) =>
    decodeReply(
      DnsPacket.encode({
        type: "response",
        id: 1,
        questions: [{ type: "TXT", name: "example.com", class: "IN" }],
        answers: [{ type: "TXT", name: "example.com", ttl: 60, data: [...strings] }]
      })
    ).answers[0]!.data as ReadonlyArray<string>

  /** `bytes` cut at the given offsets into character-strings of at most 255 bytes. */
  const cutAt = (bytes: Buffer, cuts: ReadonlyArray<number>): Array<Buffer> => {
    const at = [...new Set([0, ...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort(
      (a, b) => a - b
    )
    return at.slice(1).flatMap((to, i) => {
      const piece = bytes.subarray(at[i]!, to)
      return Array.from({ length: Math.max(1, Math.ceil(piece.length / 255)) }, (_, k) =>
        piece.subarray(k * 255, (k + 1) * 255)
      )
    })
  }

  it("a character cut between two strings is read whole: the joined value is the text written (property)", () =>
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, cuts) => {
          const strings = cutAt(Buffer.from(text, "utf8"), cuts)
          const read = txtReply(strings)
          expect(read).toHaveLength(strings.length)
          expect(read.join("")).toBe(text)
        }
      )
    ))

  it("a string that ends a character another began: é split after its first byte", () => {
    const e = Buffer.from("é", "utf8")
    expect(txtReply([Buffer.concat([Buffer.from("v=spf1 a:caf"), e.subarray(0, 1)]), e.subarray(1)])).toEqual(
      ["v=spf1 a:caf", "é"]
    )
  })

  it("bytes that never finish a character are still replacement characters, in the last string", () => {
    expect(txtReply([Buffer.from([0x61, 0xe2, 0x82])])).toEqual(["a\ufffd"])
    expect(txtReply([Buffer.from([0x61, 0xe2]), Buffer.from([0x62])])).toEqual(["a", "\ufffdb"])
  })
})

describe("decodeReply names", () => {
  /** `d` with each ASCII letter upper-cased or not, at random. */
  const anyCase = (d: string) =>
    fc
      .array(fc.boolean(), { minLength: d.length, maxLength: d.length })
      .map((up) => [...d].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(""))
  const mixed = name
    .filter((d) => d.length < 240) // room for the "www." of the CNAME's target
    .chain((d) => fc.tuple(fc.constant(d), anyCase(d), anyCase(d)))

  it("reads every name in lower case, however the server spelled it (RFC 4343) (property)", () =>
    fc.assert(
      fc.property(mixed, ([d, asked, owner]) => {
        const reply = decodeReply(
          DnsPacket.encode({
            type: "response",
            id: 1,
            questions: [{ type: "A", name: asked, class: "IN" }],
            answers: [{ type: "CNAME", name: owner, ttl: 1, data: `www.${asked}` }]
          })
        )
        expect(reply.question?.name).toBe(d)
        expect(reply.answers.map((r) => [r.name, r.data])).toEqual([[d, `www.${d}`]])
      })
    ))

  it("folds only the ASCII letters: other octets are kept as they are", () => {
    // A label with the octets 0xC0 (Latin-1 À) and "A": only the "A" folds.
    const label = Buffer.from([2, 0xc0, 0x41])
    const buf = Buffer.concat([
      Buffer.from([0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0]),
      label,
      Buffer.from([0, 0, 1, 0, 1])
    ])
    expect(decodeReply(buf).question?.name).toBe("\u00c0a")
  })
})
