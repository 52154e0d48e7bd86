/**
 * A reply decoder (RFC 1035 4.1) straight into our record shapes. dns-packet's decoder builds an
 * intermediate object per record and is the resolver's hottest path; this one reads the header,
 * the question and the answer and authority sections only (the additional section holds nothing we
 * use), with name decompression bounded against pointer loops (RFC 1035 4.1.4).
 * Throws on anything malformed; the transport reports that as a malformed reply.
 */
import type { DnsRecord } from "./DnsTypes.ts"
import { decodeNsec3Param, formatData } from "./DnsWire.ts"
import { compressV6 } from "../records/IpAddress.ts"
import { typeName } from "./DnsTypeCodes.ts"

export { typeName, typeNumber, wireType } from "./DnsTypeCodes.ts"

const RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"]

export interface DecodedReply {
  readonly id: number
  readonly qr: boolean
  readonly opcode: number
  readonly aa: boolean
  readonly tc: boolean
  readonly rd: boolean
  readonly ra: boolean
  readonly ad: boolean
  readonly cd: boolean
  readonly rcode: string
  readonly question: { readonly name: string; readonly type: number; readonly class: number } | undefined
  readonly questionCount: number
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authority: ReadonlyArray<DnsRecord>
}

class Malformed extends Error {}

/**
 * Where the reply being decoded starts and ends in its buffer (module variables, decoding is
 * synchronous): a pipelined read holds many replies, and each is read in place, without a view.
 */
let msgStart = 0
let msgEnd = 0

const need = (end: number) => {
  if (end > msgEnd) throw new Malformed("reply is truncated mid-record")
}

/**
 * Names already read in the reply being decoded, by offset. Compression (RFC 1035 4.1.4) points
 * most owner names back at the question, so each suffix is decoded once per reply. A small
 * module-level table, reset per reply (decoding is synchronous): a reply has a handful of names, a
 * linear scan beats a Map, and clearing a Map allocates a new table every time.
 */
const SEEN_MAX = 64
const seenAt = new Int32Array(SEEN_MAX)
const seenName: Array<string> = new Array<string>(SEEN_MAX).fill("")
/** Where in `seenName` the suffix starts: it is sliced only when a pointer asks for it. */
const seenFrom = new Int32Array(SEEN_MAX)
let seenCount = 0
const seenGet = (offset: number): string | undefined => {
  for (let i = 0; i < seenCount; i++) {
    if (seenAt[i] !== offset) continue
    if (seenFrom[i] !== 0) {
      seenName[i] = seenName[i]!.slice(seenFrom[i])
      seenFrom[i] = 0
    }
    return seenName[i]
  }
  return undefined
}
const seenHas = (offset: number): boolean => {
  for (let i = 0; i < seenCount; i++) if (seenAt[i] === offset) return true
  return false
}
/** Remembers a suffix; past SEEN_MAX names (a hostile reply) the rest are simply decoded again. */
const seenSet = (offset: number, name: string, from: number) => {
  if (seenCount === SEEN_MAX || seenHas(offset)) return
  seenAt[seenCount] = offset
  seenFrom[seenCount] = from
  seenName[seenCount++] = name
}

/** Where the name last read by `readName` ends (a module variable rather than a tuple per name). */
let nameEnd = 0
/** Offsets of the labels of the name being read (and the name's length after each), reused. */
const starts = new Int32Array(2 * 128)

/**
 * The name being read, as bytes: one `toString` at the end gives a flat string. Joining labels
 * with `+` built a rope (V8 cons strings: a node per join, each label a string of its own), ~4x
 * the size of the flat name, and a scan in flight keeps ~175 answers (docs/bench.md, the batch).
 */
const nameBytes = Buffer.alloc(2 * 256)

/** A (possibly compressed) name at `offset`, lower case without trailing dot; it ends at `nameEnd`. */
const readName = (buf: Buffer, offset: number): string => {
  let size = 0
  let labels = 0
  let pos = offset
  let end = -1
  let jumps = 0
  let length = 0
  let tail: string | undefined
  for (;;) {
    need(pos + 1)
    const len = buf[pos]!
    if (len === 0) {
      pos += 1
      break
    }
    if ((len & 0xc0) === 0xc0) {
      need(pos + 2)
      if (++jumps > 64) throw new Malformed("name compression loop")
      if (end < 0) end = pos + 2
      // Offsets count from the start of the message (RFC 1035 4.1.4).
      pos = msgStart + (((len & 0x3f) << 8) | buf[pos + 1]!)
      tail = seenGet(pos)
      if (tail !== undefined) break
      continue
    }
    if (len & 0xc0) throw new Malformed("unsupported label type")
    need(pos + 1 + len)
    length += len + 1
    if (length > 255) throw new Malformed("name longer than 255 octets")
    if (size > 0) nameBytes[size++] = 0x2e
    // Byte by byte, lower-cased on the way (RFC 4343: ASCII case is not significant): a label is
    // a few octets, for which a loop costs less than Buffer.copy's checks and a toLowerCase after.
    for (let k = pos + 1, last = pos + 1 + len; k < last; k++) {
      const b = buf[k]!
      nameBytes[size++] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b
    }
    starts[labels++] = pos
    starts[labels++] = size
    pos += 1 + len
  }
  let name: string
  if (tail !== undefined) {
    // The remembered suffix counts towards the 255-octet limit too (`tail.length + 1` octets without the root).
    if (tail !== "" && length + tail.length + 1 > 255) throw new Malformed("name longer than 255 octets")
    if (size === 0) name = tail
    else {
      if (tail !== "") {
        nameBytes[size++] = 0x2e
        size += nameBytes.write(tail, size, "latin1")
      }
      name = nameBytes.toString("latin1", 0, size)
    }
  } else name = nameBytes.toString("latin1", 0, size)
  // Remember every suffix that starts at a label we read: `a.b.c` at o, `b.c` at o + 2, ...
  for (let i = 0; i < labels; i += 2) seenSet(starts[i]!, name, i === 0 ? 0 : starts[i - 1]! + 1)
  nameEnd = end < 0 ? pos : end
  return name
}

/**
 * `text` flattened: presentation text is joined from parts (a rope of V8 cons strings, ~8x the
 * flat size for an RRSIG); reading a string as a number makes V8 flatten it in place.
 */
const flat = (text: string): string => {
  void Number(text)
  return text
}

const u16 = (buf: Buffer, o: number) => (buf[o]! << 8) | buf[o + 1]!
const u32 = (buf: Buffer, o: number) => buf.readUInt32BE(o)

/** Checks `n` rdata octets at `o` lie before the rdata's `end`. */
const within = (o: number, n: number, end: number, type: string) => {
  if (o + n > end) throw new Malformed(`${type} rdata too short`)
}

/**
 * How many bytes at the end of `bytes` begin a UTF-8 character they do not finish (0 to 3): a lead
 * byte whose sequence runs past the end, after at most 3 continuation bytes.
 */
const unfinishedUtf8 = (bytes: Uint8Array): number => {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back]!
    if ((b & 0xc0) === 0x80) continue // a continuation byte: look further back for its lead
    const needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
    return needs > back ? back : 0
  }
  return 0
}

/**
 * A TXT record's character-strings (RFC 1035 3.3.14), each read as UTF-8. A publisher may split a
 * long value at any byte (RFC 7208 3.3 joins the strings as they are), so a character cut between
 * strings is read whole, in the string that finishes it, rather than as replacement characters:
 * the joined value is then the text the publisher wrote.
 */
const characterStrings = (buf: Buffer, start: number, end: number): Array<string> => {
  const strings: Array<string> = []
  let unfinished: Buffer | undefined // the start of a character the strings before did not finish
  let o = start
  while (o < end) {
    const len = buf[o]!
    within(o + 1, len, end, "TXT")
    const own = buf.subarray(o + 1, o + 1 + len)
    const bytes = unfinished === undefined ? own : Buffer.concat([unfinished, own])
    o += 1 + len
    const cut = o >= end ? 0 : unfinishedUtf8(bytes)
    strings.push(bytes.toString("utf8", 0, bytes.length - cut))
    unfinished = cut === 0 ? undefined : bytes.subarray(bytes.length - cut)
  }
  return strings
}

/** rdata of one record in our data shape (see DnsWire's interfaces). */
const readData = (buf: Buffer, type: string, start: number, end: number): unknown => {
  switch (type) {
    case "A":
      within(start, 4, end, type)
      return `${buf[start]}.${buf[start + 1]}.${buf[start + 2]}.${buf[start + 3]}`
    case "AAAA": {
      within(start, 16, end, type)
      const groups: Array<string> = []
      for (let i = 0; i < 16; i += 2) groups.push(u16(buf, start + i).toString(16))
      return compressV6(groups)
    }
    case "NS":
    case "CNAME":
    case "PTR":
    case "DNAME":
      return readName(buf, start)
    case "MX": {
      within(start, 3, end, type)
      return { priority: u16(buf, start), exchange: readName(buf, start + 2) }
    }
    case "TXT":
      return characterStrings(buf, start, end)
    case "SOA": {
      const mname = readName(buf, start)
      const rname = readName(buf, nameEnd)
      const o2 = nameEnd
      within(o2, 20, end, type)
      return {
        mname,
        rname,
        serial: u32(buf, o2),
        refresh: u32(buf, o2 + 4),
        retry: u32(buf, o2 + 8),
        expire: u32(buf, o2 + 12),
        minimum: u32(buf, o2 + 16)
      }
    }
    case "CAA": {
      within(start, 2, end, type)
      const tagLength = buf[start + 1]!
      within(start + 2, tagLength, end, type)
      return {
        flags: buf[start]!,
        tag: buf.toString("latin1", start + 2, start + 2 + tagLength),
        value: buf.toString("utf8", start + 2 + tagLength, end)
      }
    }
    case "SRV":
      within(start, 7, end, type)
      return {
        priority: u16(buf, start),
        weight: u16(buf, start + 2),
        port: u16(buf, start + 4),
        target: readName(buf, start + 6)
      }
    case "DNSKEY":
      within(start, 4, end, type)
      return {
        flags: u16(buf, start),
        protocol: buf[start + 2]!,
        algorithm: buf[start + 3]!,
        publicKey: buf.toString("base64", start + 4, end)
      }
    case "DS":
      within(start, 4, end, type)
      return {
        keyTag: u16(buf, start),
        algorithm: buf[start + 2]!,
        digestType: buf[start + 3]!,
        digest: buf.toString("hex", start + 4, end).toUpperCase()
      }
    case "RRSIG": {
      within(start, 18, end, type)
      const signersName = readName(buf, start + 18)
      const o = nameEnd
      return {
        typeCovered: typeName(u16(buf, start)),
        algorithm: buf[start + 2]!,
        labels: buf[start + 3]!,
        originalTTL: u32(buf, start + 4),
        expiration: u32(buf, start + 8),
        inception: u32(buf, start + 12),
        keyTag: u16(buf, start + 16),
        signersName,
        signature: buf.toString("base64", o, end)
      }
    }
    case "NSEC3PARAM":
      return decodeNsec3Param(buf.subarray(start, end)) ?? buf.toString("hex", start, end)
    case "TLSA":
      within(start, 3, end, type)
      return {
        usage: buf[start]!,
        selector: buf[start + 1]!,
        matchingType: buf[start + 2]!,
        certificate: buf.toString("hex", start + 3, end)
      }
    default:
      return buf.toString("hex", start, end)
  }
}

/** Where the section last read by `readRecords` ends. */
let sectionEnd = 0
const NO_RECORDS: ReadonlyArray<DnsRecord> = Object.freeze([])

/**
 * The `count` records of a section at `offset`, in an array of their number: an array grown from
 * empty reserves 17 slots at its first push, for the one or two records of a usual reply. A
 * section with none shares one frozen empty array. A record takes 11 octets at least, so a count
 * the reply cannot hold allocates no more than the reply could fill.
 */
const readRecords = (buf: Buffer, offset: number, count: number): ReadonlyArray<DnsRecord> => {
  let o = offset
  if (count === 0) {
    sectionEnd = o
    return NO_RECORDS
  }
  const out = new Array<DnsRecord>(Math.min(count, Math.floor((msgEnd - o) / 11) + 1))
  let n = 0
  for (let i = 0; i < count; i++) {
    const name = readName(buf, o)
    const afterName = nameEnd
    need(afterName + 10)
    const type = typeName(u16(buf, afterName))
    const ttl = u32(buf, afterName + 4)
    const length = u16(buf, afterName + 8)
    const start = afterName + 10
    need(start + length)
    if (type !== "OPT") {
      const data = readData(buf, type, start, start + length)
      // Text is made now, not by a lazy getter: an object literal with an accessor is built on
      // V8's slow path and tripled the garbage per reply (docs/bench.md). One shape for every record.
      const text = type === "A" || type === "AAAA" ? (data as string) : flat(formatData(type, data))
      out[n++] = { name, type, ttl, data, text }
    }
    o = start + length
  }
  if (n < out.length) out.length = n
  sectionEnd = o
  return out
}

/** Decodes a reply's header, question, answer and authority sections: the octets `start` to `end` of `buf`. */
export const decodeReply = (buf: Buffer, start = 0, end = buf.length): DecodedReply => {
  if (end - start < 12) throw new Malformed("reply shorter than a DNS header")
  msgStart = start
  msgEnd = end
  seenCount = 0
  const flags = u16(buf, start + 2)
  const qd = u16(buf, start + 4)
  const an = u16(buf, start + 6)
  const ns = u16(buf, start + 8)
  let o = start + 12
  let question: DecodedReply["question"]
  for (let i = 0; i < qd; i++) {
    const name = readName(buf, o)
    const after = nameEnd
    need(after + 4)
    if (i === 0) question = { name, type: u16(buf, after), class: u16(buf, after + 2) }
    o = after + 4
  }
  let answers = NO_RECORDS
  let authority = NO_RECORDS
  // A truncated reply may end mid-record; only its header matters (we retry over TCP).
  if ((flags & 0x0200) === 0) {
    answers = readRecords(buf, o, an)
    authority = readRecords(buf, sectionEnd, ns)
  }
  const rcode = flags & 0xf
  return {
    id: u16(buf, start),
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    ad: (flags & 0x0020) !== 0,
    cd: (flags & 0x0010) !== 0,
    rcode: RCODES[rcode] ?? `RCODE${rcode}`,
    question,
    questionCount: qd,
    answers,
    authority
  }
}
