/**
 * Record data: decoding dns-packet answers into plain JSON-friendly values, their presentation
 * (zone-file) form, and the reverse parse used by the in-memory fake resolver.
 * Pure; no I/O. Names in `data` carry no trailing dot; names in presentation text do (RFC 1035 5.1).
 */
import type * as DnsPacket from "dns-packet"
import type { DnsAnswer, DnsRecord } from "./DnsTypes.ts"
import type {
  CaaData,
  DnskeyData,
  DsData,
  MxData,
  Nsec3ParamData,
  RrsigData,
  SoaData,
  SrvData,
  TlsaData
} from "../records/DnsRdata.ts"
import { parseRrsigTime, rrsigTime } from "./RrsigTime.ts"

const abs = (name: string) => (name === "" || name === "." ? "." : name.endsWith(".") ? name : `${name}.`)
const rel = (name: string) => (name === "." ? "" : name.replace(/\.$/, "")).toLowerCase()

/** Printable ASCII other than `"` and `\`: such a string is quoted as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

/** RFC 1035 5.1 character-string: quoted, `"` and `\` escaped, non-printables as \DDD. */
export const quoteString = (value: string): string => {
  // Nearly every TXT string (SPF, DMARC, keys) is plain: no byte walk for those.
  if (PLAIN.test(value)) return `"${value}"`
  let out = '"'
  for (const byte of Buffer.from(value, "utf8")) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString().padStart(3, "0")}`
    else out += String.fromCharCode(byte)
  }
  return out + '"'
}

/** RFC 7208 3.3: the strings of one TXT record are concatenated without any separator. */
export const joinTxt = (strings: ReadonlyArray<string>): string => strings.join("")

/** TXT strings of each TXT record of an answer, joined per RFC 7208 3.3; NODATA / NXDOMAIN give []. */
export const txtOf = (answer: DnsAnswer): ReadonlyArray<string> =>
  answer.answers.filter((r) => r.type === "TXT").map((r) => joinTxt(r.data as ReadonlyArray<string>))

/** RFC 5155 4.2 NSEC3PARAM rdata: hash alg, flags, iterations, salt length, salt (dns-packet lacks it). */
export const decodeNsec3Param = (rdata: Uint8Array): Nsec3ParamData | undefined => {
  if (rdata.length < 5) return undefined
  const saltLength = rdata[4]!
  if (rdata.length !== 5 + saltLength) return undefined
  return {
    hashAlgorithm: rdata[0]!,
    flags: rdata[1]!,
    iterations: (rdata[2]! << 8) | rdata[3]!,
    salt: Buffer.from(rdata.subarray(5)).toString("hex")
  }
}

export const encodeNsec3Param = (data: Nsec3ParamData): Buffer => {
  const salt = Buffer.from(data.salt, "hex")
  const out = Buffer.alloc(5 + salt.length)
  out[0] = data.hashAlgorithm & 0xff
  out[1] = data.flags & 0xff
  out.writeUInt16BE(data.iterations & 0xffff, 2)
  out[4] = salt.length
  salt.copy(out, 5)
  return out
}

const bytes = (value: unknown): Buffer =>
  Buffer.isBuffer(value) ? value : typeof value === "string" ? Buffer.from(value) : Buffer.alloc(0)

/** Turns dns-packet's decoded rdata into our data shape for the known types; others stay raw hex. */
export const normalizeData = (type: string, raw: unknown): unknown => {
  const r = raw as Record<string, unknown>
  switch (type) {
    case "A":
    case "AAAA":
      return String(raw)
    case "NS":
    case "CNAME":
    case "PTR":
    case "DNAME":
      return rel(String(raw))
    case "TXT":
      return (Array.isArray(raw) ? raw : [raw]).map((s) => bytes(s).toString("utf8"))
    case "MX":
      return { priority: Number(r.preference ?? 0), exchange: rel(String(r.exchange ?? "")) } satisfies MxData
    case "SOA":
      return {
        mname: rel(String(r.mname)),
        rname: rel(String(r.rname)),
        serial: Number(r.serial ?? 0),
        refresh: Number(r.refresh ?? 0),
        retry: Number(r.retry ?? 0),
        expire: Number(r.expire ?? 0),
        minimum: Number(r.minimum ?? 0)
      } satisfies SoaData
    case "CAA":
      return { flags: Number(r.flags ?? 0), tag: String(r.tag), value: String(r.value) } satisfies CaaData
    case "SRV":
      return {
        priority: Number(r.priority ?? 0),
        weight: Number(r.weight ?? 0),
        port: Number(r.port),
        target: rel(String(r.target))
      } satisfies SrvData
    case "DNSKEY":
      return {
        flags: Number(r.flags),
        protocol: 3,
        algorithm: Number(r.algorithm),
        publicKey: bytes(r.key).toString("base64")
      } satisfies DnskeyData
    case "DS":
      return {
        keyTag: Number(r.keyTag),
        algorithm: Number(r.algorithm),
        digestType: Number(r.digestType),
        digest: bytes(r.digest).toString("hex").toUpperCase()
      } satisfies DsData
    case "RRSIG":
      return {
        typeCovered: String(r.typeCovered),
        algorithm: Number(r.algorithm),
        labels: Number(r.labels),
        originalTTL: Number(r.originalTTL),
        expiration: Number(r.expiration),
        inception: Number(r.inception),
        keyTag: Number(r.keyTag),
        signersName: rel(String(r.signersName)),
        signature: bytes(r.signature).toString("base64")
      } satisfies RrsigData
    case "NSEC3PARAM":
      return Buffer.isBuffer(raw) ? (decodeNsec3Param(raw) ?? raw.toString("hex")) : raw
    case "TLSA":
      return {
        usage: Number(r.usage),
        selector: Number(r.selector),
        matchingType: Number(r.matchingType),
        certificate: bytes(r.certificate).toString("hex")
      } satisfies TlsaData
    default:
      return Buffer.isBuffer(raw) ? raw.toString("hex") : raw
  }
}

/** The presentation form of rdata in our data shape (RFC 1035 5.1 and each type's RFC). */
export const formatData = (type: string, data: unknown): string => {
  const d = data as Record<string, unknown>
  switch (type) {
    case "A":
    case "AAAA":
      return String(data)
    case "NS":
    case "CNAME":
    case "PTR":
    case "DNAME":
      return abs(String(data))
    case "TXT":
      return (data as ReadonlyArray<string>).map(quoteString).join(" ")
    case "MX":
      return `${d.priority} ${abs(String(d.exchange))}`
    case "SOA":
      return `${abs(String(d.mname))} ${abs(String(d.rname))} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`
    case "CAA":
      return `${d.flags} ${d.tag} ${quoteString(String(d.value))}`
    case "SRV":
      return `${d.priority} ${d.weight} ${d.port} ${abs(String(d.target))}`
    case "DNSKEY":
      return `${d.flags} ${d.protocol} ${d.algorithm} ${d.publicKey}`
    case "DS":
      return `${d.keyTag} ${d.algorithm} ${d.digestType} ${d.digest}`
    case "RRSIG":
      return (
        `${d.typeCovered} ${d.algorithm} ${d.labels} ${d.originalTTL} ` +
        `${rrsigTime(Number(d.expiration))} ${rrsigTime(Number(d.inception))} ` +
        `${d.keyTag} ${abs(String(d.signersName))} ${d.signature}`
      )
    case "NSEC3PARAM":
      return typeof data === "string"
        ? `\\# ${data.length / 2} ${data}`
        : `${d.hashAlgorithm} ${d.flags} ${d.iterations} ${d.salt === "" ? "-" : d.salt}`
    case "TLSA":
      return `${d.usage} ${d.selector} ${d.matchingType} ${d.certificate}`
    default:
      // RFC 3597 5: generic presentation of unknown types.
      return typeof data === "string" ? `\\# ${data.length / 2} ${data}` : JSON.stringify(data)
  }
}

/** A dns-packet answer as our record (class IN assumed; OPT filtered by the caller). */
export const toRecord = (answer: DnsPacket.Answer): DnsRecord => {
  const type = answer.type as string
  const data = normalizeData(type, (answer as { data?: unknown }).data)
  return {
    name: rel(answer.name),
    type,
    ttl: (answer as { ttl?: number }).ttl ?? 0,
    data,
    text: formatData(type, data)
  }
}

/**
 * The character at `i` as a whole code point: a character beyond the Basic Multilingual Plane is
 * two UTF-16 code units, and either half alone encodes as U+FFFD.
 */
const charAt = (text: string, i: number): string => String.fromCodePoint(text.codePointAt(i)!)

/**
 * Splits presentation text into tokens, keeping quoted strings (escapes resolved) as one token.
 * RFC 1035 5.1: `\DDD` is one octet, `\X` the character X; the octets are read back as UTF-8.
 */
export const tokenize = (text: string): Array<string> => {
  const out: Array<string> = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === " " || c === "\t") {
      i++
      continue
    }
    const quoted = c === '"'
    if (quoted) i++
    const buf: Array<number> = []
    while (i < text.length) {
      const ch = charAt(text, i)
      if (quoted ? ch === '"' : ch === " " || ch === "\t") break
      if (ch === "\\" && i + 1 < text.length) {
        const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4))
        if (digits) {
          buf.push(Number(digits[0]) & 0xff)
          i += 4
        } else {
          const escaped = charAt(text, i + 1)
          buf.push(...Buffer.from(escaped, "utf8"))
          i += 1 + escaped.length
        }
        continue
      }
      buf.push(...Buffer.from(ch, "utf8"))
      i += ch.length
    }
    if (quoted) i++
    out.push(Buffer.from(buf).toString("utf8"))
  }
  return out
}

/**
 * A value as RFC 1035 3.3.14 character-strings of at most 255 octets each, cut between characters:
 * a cut inside a UTF-8 sequence would leave each half undecodable on its own.
 */
export const characterStrings = (value: string): Array<string> => {
  const strings: Array<string> = []
  let current = ""
  let octets = 0
  for (const c of value) {
    const size = Buffer.byteLength(c, "utf8")
    if (octets + size > 255) {
      strings.push(current)
      current = ""
      octets = 0
    }
    current += c
    octets += size
  }
  strings.push(current)
  return strings
}

/**
 * Parses presentation rdata into our data shape (used by the fake resolver and tests).
 * TXT text that does not start with a quote is taken as one unquoted string, split into
 * 255-byte character-strings, so fakes can write `v=spf1 -all` naturally.
 */
export const parseData = (type: string, text: string): unknown => {
  const t = tokenize(text.trim())
  const n = (i: number) => Number(t[i] ?? 0)
  const s = (i: number) => t[i] ?? ""
  switch (type) {
    case "A":
    case "AAAA":
      return text.trim()
    case "NS":
    case "CNAME":
    case "PTR":
    case "DNAME":
      return rel(text.trim())
    case "TXT": {
      if (text.trimStart().startsWith('"')) return t
      return characterStrings(text)
    }
    case "MX":
      return { priority: n(0), exchange: rel(s(1)) } satisfies MxData
    case "SOA":
      return {
        mname: rel(s(0)),
        rname: rel(s(1)),
        serial: n(2),
        refresh: n(3),
        retry: n(4),
        expire: n(5),
        minimum: n(6)
      } satisfies SoaData
    case "CAA":
      return { flags: n(0), tag: s(1), value: t.slice(2).join(" ") } satisfies CaaData
    case "SRV":
      return { priority: n(0), weight: n(1), port: n(2), target: rel(s(3)) } satisfies SrvData
    case "DNSKEY":
      return {
        flags: n(0),
        protocol: n(1),
        algorithm: n(2),
        publicKey: t.slice(3).join("")
      } satisfies DnskeyData
    case "DS":
      return {
        keyTag: n(0),
        algorithm: n(1),
        digestType: n(2),
        digest: t.slice(3).join("").toUpperCase()
      } satisfies DsData
    case "RRSIG":
      return {
        typeCovered: s(0).toUpperCase(),
        algorithm: n(1),
        labels: n(2),
        originalTTL: n(3),
        expiration: parseRrsigTime(s(4)),
        inception: parseRrsigTime(s(5)),
        keyTag: n(6),
        signersName: rel(s(7)),
        signature: t.slice(8).join("")
      } satisfies RrsigData
    case "NSEC3PARAM":
      return {
        hashAlgorithm: n(0),
        flags: n(1),
        iterations: n(2),
        salt: s(3) === "-" ? "" : s(3).toLowerCase()
      } satisfies Nsec3ParamData
    case "TLSA":
      return {
        usage: n(0),
        selector: n(1),
        matchingType: n(2),
        certificate: t.slice(3).join("").toLowerCase()
      } satisfies TlsaData
    default:
      return text.trim()
  }
}

/** The reverse-lookup name of an IP address (RFC 1035 3.5 in-addr.arpa, RFC 3596 2.5 ip6.arpa). */
export const reverseName = (ip: string): string | undefined => {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip)
  if (v4) {
    const octets = v4.slice(1).map(Number)
    if (octets.some((o) => o > 255)) return undefined
    return `${octets.reverse().join(".")}.in-addr.arpa`
  }
  const groups = expandV6(ip)
  if (!groups) return undefined
  const nibbles = groups
    .map((g) => g.toString(16).padStart(4, "0"))
    .join("")
    .split("")
  return `${nibbles.reverse().join(".")}.ip6.arpa`
}

/** IPv6 text (with `::` and an optional dotted IPv4 tail) to its eight 16-bit groups. */
export const expandV6 = (ip: string): Array<number> | undefined => {
  if (!/^[0-9a-fA-F:.]+$/.test(ip) || !ip.includes(":")) return undefined
  let text = ip
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (tail) {
    const o = tail.slice(1).map(Number) as [number, number, number, number]
    if (o.some((x) => x > 255)) return undefined
    text =
      text.slice(0, tail.index) + `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const part = (s: string) => (s === "" ? [] : s.split(":"))
  const head = part(halves[0]!)
  const rest = halves.length === 2 ? part(halves[1]!) : []
  const fill = 8 - head.length - rest.length
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...rest]
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined
  return all.map((g) => parseInt(g, 16))
}
