/**
 * SVCB and HTTPS resource records (RFC 9460): the rdata wire format (§2.2) and the SvcParams a
 * client uses (§7: mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint). Pure: the
 * resolver hands the rdata over as hex, this reads it; `encodeSvcb` writes it back (tests, fakes).
 */
import { formatIp, parseIp } from "./IpAddress.ts"

/** A SvcParamKey this module does not interpret, with its value as hex. */
export interface OtherParam {
  readonly key: number
  readonly value: string
}

export interface SvcbRecord {
  /** 0 is AliasMode (§2.4.2: the target carries the service), anything else ServiceMode. */
  readonly priority: number
  /** Lower case, without the trailing dot; "." (the root) means the owner name itself (§2.5). */
  readonly target: string
  readonly mandatory: ReadonlyArray<number>
  readonly alpn: ReadonlyArray<string>
  readonly noDefaultAlpn: boolean
  readonly port: number | null
  readonly ipv4hint: ReadonlyArray<string>
  readonly ipv6hint: ReadonlyArray<string>
  /** The ECHConfigList as base64 (draft-ietf-tls-esni; RFC 9460 names the key), or null. */
  readonly ech: string | null
  readonly other: ReadonlyArray<OtherParam>
}

/** SvcParamKeys of the IANA registry (§14.3.2) that this module reads. */
const KEY = { mandatory: 0, alpn: 1, noDefaultAlpn: 2, port: 3, ipv4hint: 4, ech: 5, ipv6hint: 6 } as const
const KEY_NAMES = ["mandatory", "alpn", "no-default-alpn", "port", "ipv4hint", "ech", "ipv6hint"]

/** The presentation name of a SvcParamKey (§2.1: `keyNNNNN` for unnamed ones). */
export const keyName = (key: number): string => KEY_NAMES[key] ?? `key${key}`

class Malformed extends Error {}

/**
 * Reads SVCB/HTTPS rdata (hex, as the resolver keeps it). A record a client must treat as
 * malformed (§2.2: keys out of order or repeated, §7: a value of the wrong shape) is an error.
 */
export const decodeSvcb = (hex: string): SvcbRecord | { readonly error: string } => {
  try {
    if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Malformed("rdata is not hex")
    const b = Buffer.from(hex, "hex")
    let o = 0
    const need = (n: number) => {
      if (o + n > b.length) throw new Malformed("rdata too short")
    }
    const u16 = () => {
      need(2)
      const v = b.readUInt16BE(o)
      o += 2
      return v
    }
    const priority = u16()
    // TargetName: uncompressed (§2.2), so labels only.
    const labels: Array<string> = []
    for (;;) {
      need(1)
      const len = b[o++]!
      if (len === 0) break
      if (len > 63) throw new Malformed("target name is compressed or malformed")
      need(len)
      labels.push(b.toString("latin1", o, o + len).toLowerCase())
      o += len
    }
    const target = labels.length === 0 ? "." : labels.join(".")
    let mandatory: Array<number> = []
    let alpn: Array<string> = []
    let noDefaultAlpn = false
    let port: number | null = null
    let ipv4hint: Array<string> = []
    let ipv6hint: Array<string> = []
    let ech: string | null = null
    const other: Array<OtherParam> = []
    let last = -1
    while (o < b.length) {
      const key = u16()
      const length = u16()
      need(length)
      if (key <= last) throw new Malformed(`SvcParamKeys out of order or repeated at ${keyName(key)}`)
      last = key
      const v = b.subarray(o, o + length)
      o += length
      switch (key) {
        case KEY.mandatory:
          if (length === 0 || length % 2 !== 0) throw new Malformed("mandatory is not a list of keys")
          mandatory = Array.from({ length: length / 2 }, (_, i) => v.readUInt16BE(2 * i))
          break
        case KEY.alpn: {
          const ids: Array<string> = []
          for (let i = 0; i < v.length;) {
            const n = v[i]!
            if (n === 0 || i + 1 + n > v.length) throw new Malformed("alpn is not a list of protocol ids")
            ids.push(v.toString("latin1", i + 1, i + 1 + n))
            i += 1 + n
          }
          if (ids.length === 0) throw new Malformed("alpn is empty")
          alpn = ids
          break
        }
        case KEY.noDefaultAlpn:
          if (length !== 0) throw new Malformed("no-default-alpn has a value")
          noDefaultAlpn = true
          break
        case KEY.port:
          if (length !== 2) throw new Malformed("port is not two octets")
          port = v.readUInt16BE(0)
          break
        case KEY.ipv4hint:
          if (length === 0 || length % 4 !== 0) throw new Malformed("ipv4hint is not a list of addresses")
          ipv4hint = Array.from({ length: length / 4 }, (_, i) => [...v.subarray(4 * i, 4 * i + 4)].join("."))
          break
        case KEY.ech:
          ech = v.toString("base64")
          break
        case KEY.ipv6hint:
          if (length === 0 || length % 16 !== 0) throw new Malformed("ipv6hint is not a list of addresses")
          ipv6hint = Array.from({ length: length / 16 }, (_, i) =>
            formatIp({ family: 6, value: BigInt(`0x${v.toString("hex", 16 * i, 16 * i + 16)}`) })
          )
          break
        default:
          other.push({ key, value: v.toString("hex") })
      }
    }
    return { priority, target, mandatory, alpn, noDefaultAlpn, port, ipv4hint, ipv6hint, ech, other }
  } catch (e) {
    if (e instanceof Malformed) return { error: e.message }
    throw e
  }
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 255])
const param = (key: number, value: Buffer) => Buffer.concat([u16(key), u16(value.length), value])
const address = (text: string, bytes: number) => {
  const ip = parseIp(text)
  if (ip === undefined) throw new Error(`not an address: ${text}`)
  return Buffer.from(ip.value.toString(16).padStart(bytes * 2, "0"), "hex")
}

/** The wire rdata (hex) of a record: the inverse of `decodeSvcb` on what it returns. */
export const encodeSvcb = (r: SvcbRecord): string => {
  const target =
    r.target === "."
      ? Buffer.from([0])
      : Buffer.concat([
          ...r.target
            .split(".")
            .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, "latin1")])),
          Buffer.from([0])
        ])
  const params: Array<readonly [number, Buffer]> = []
  if (r.mandatory.length > 0) params.push([KEY.mandatory, Buffer.concat(r.mandatory.map(u16))])
  if (r.alpn.length > 0)
    params.push([
      KEY.alpn,
      Buffer.concat(r.alpn.map((id) => Buffer.concat([Buffer.from([id.length]), Buffer.from(id, "latin1")])))
    ])
  if (r.noDefaultAlpn) params.push([KEY.noDefaultAlpn, Buffer.alloc(0)])
  if (r.port !== null) params.push([KEY.port, u16(r.port)])
  if (r.ipv4hint.length > 0) params.push([KEY.ipv4hint, Buffer.concat(r.ipv4hint.map((a) => address(a, 4)))])
  if (r.ech !== null) params.push([KEY.ech, Buffer.from(r.ech, "base64")])
  if (r.ipv6hint.length > 0) params.push([KEY.ipv6hint, Buffer.concat(r.ipv6hint.map((a) => address(a, 16)))])
  for (const p of r.other) params.push([p.key, Buffer.from(p.value, "hex")])
  params.sort((a, b) => a[0] - b[0])
  return Buffer.concat([u16(r.priority), target, ...params.map(([k, v]) => param(k, v))]).toString("hex")
}

/**
 * The protocols a client may use with a ServiceMode record (§7.1.1): its alpn ids, plus the
 * scheme's default (http/1.1 for HTTPS records, §9.1) unless no-default-alpn is set.
 */
export const protocolSet = (r: SvcbRecord): ReadonlyArray<string> =>
  r.noDefaultAlpn || r.alpn.includes("http/1.1") ? r.alpn : [...r.alpn, "http/1.1"]
