/**
 * IP addresses and CIDR blocks as values: parsing (strict, and the loose IPv4 forms resolvers and
 * URL parsers accept, RFC 3986 3.2.2 / inet_aton), formatting (RFC 5952 for IPv6), containment.
 * Pure: the address policy (net/Targets.ts), the edge's trusted proxies and the CSP crawler's
 * host check all read addresses this one way.
 */

export interface Ip {
  readonly family: 4 | 6
  /** The address as an unsigned integer (32 or 128 bits). */
  readonly value: bigint
}

export interface Cidr {
  readonly family: 4 | 6
  readonly base: bigint
  readonly prefix: number
}

const BITS = { 4: 32, 6: 128 } as const

// ---------------------------------------------------------------------------------------------
// Parsing

const parseNumberPart = (part: string): bigint | undefined => {
  // WHATWG URL "IPv4 number parser": 0x -> hex, leading 0 -> octal, else decimal.
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0n : BigInt(part)
  if (/^0[0-7]+$/.test(part)) return BigInt("0o" + part.slice(1))
  if (/^(0|[1-9][0-9]*)$/.test(part)) return BigInt(part)
  return undefined
}

/**
 * IPv4 in every form a URL host or `inet_aton` accepts: `127.0.0.1`, `0x7f.1`, `2130706433`,
 * `0177.0.0.1`, `127.1` (WHATWG URL Standard, "IPv4 parser"). Too-long or out-of-range numbers are
 * not addresses (undefined), never wrapped around.
 */
export const parseIPv4Loose = (text: string): Ip | undefined => {
  if (text.length === 0 || text.length > 64) return undefined
  const parts = text.split(".")
  if (parts[parts.length - 1] === "" && parts.length > 1) parts.pop()
  if (parts.length === 0 || parts.length > 4) return undefined
  const numbers: Array<bigint> = []
  for (const part of parts) {
    if (part.length === 0 || part.length > 34) return undefined
    const n = parseNumberPart(part)
    if (n === undefined) return undefined
    numbers.push(n)
  }
  const last = numbers[numbers.length - 1]!
  if (numbers.slice(0, -1).some((n) => n > 255n)) return undefined
  if (last >= 256n ** BigInt(5 - numbers.length)) return undefined
  let value = last
  numbers.slice(0, -1).forEach((n, i) => {
    value += n << BigInt(8 * (3 - i))
  })
  return { family: 4, value }
}

/** Strict dotted-quad decimal (what DNS A records and `ALLOW_TARGETS` use). */
export const parseIPv4 = (text: string): Ip | undefined => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!m) return undefined
  let value = 0n
  for (let i = 1; i <= 4; i++) {
    const n = Number(m[i])
    if (n > 255 || (m[i]!.length > 1 && m[i]!.startsWith("0"))) return undefined
    value = (value << 8n) | BigInt(n)
  }
  return { family: 4, value }
}

/** IPv6 text form (RFC 4291 §2.2), with an optional trailing dotted IPv4; no zone identifiers. */
export const parseIPv6 = (input: string): Ip | undefined => {
  let text = input
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1)
  if (text.length < 2 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined
  let tail: Array<number> = []
  const lastColon = text.lastIndexOf(":")
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(text.slice(lastColon + 1))
    if (!v4) return undefined
    tail = [Number(v4.value >> 16n), Number(v4.value & 0xffffn)]
    // Keep a "::" that precedes the IPv4 part; drop a single separating colon.
    text = text.slice(0, lastColon + 1)
    if (!text.endsWith("::")) text = text.slice(0, -1)
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (s: string): Array<number> | undefined => {
    if (s === "") return []
    const out: Array<number> = []
    for (const g of s.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
      out.push(parseInt(g, 16))
    }
    return out
  }
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !rest) return undefined
  const right = [...rest, ...tail]
  let all: Array<number>
  if (halves.length === 2) {
    const fill = 8 - head.length - right.length
    if (fill < 1) return undefined
    all = [...head, ...new Array<number>(fill).fill(0), ...right]
  } else {
    all = [...head, ...tail]
    if (all.length !== 8) return undefined
  }
  let value = 0n
  for (const g of all) value = (value << 16n) | BigInt(g)
  return { family: 6, value }
}

/** An address as DNS or a socket reports it: strict IPv4 or IPv6. */
export const parseIp = (text: string): Ip | undefined =>
  text.includes(":") ? parseIPv6(text) : parseIPv4(text)

/**
 * The IP a URL host denotes, if it is an address literal in any form browsers and `inet_aton`
 * accept (`[::1]`, `0x7f.1`, `2130706433`, `0177.0.0.1`); undefined for a host name.
 * WHATWG treats a host whose last label is numeric as IPv4, so `1.2.3.4.5` is an invalid IPv4 too:
 * those return `invalid` so callers refuse them instead of resolving them as names.
 */
export const hostLiteral = (host: string): Ip | "invalid" | undefined => {
  const h = host.toLowerCase()
  if (h.startsWith("[") || h.includes(":")) return parseIPv6(h) ?? "invalid"
  const labels = h.split(".").filter((l, i, all) => !(l === "" && i === all.length - 1))
  const last = labels[labels.length - 1] ?? ""
  if (!/^(0[xX][0-9a-fA-F]*|[0-9]+)$/.test(last)) return undefined
  return parseIPv4Loose(h) ?? "invalid"
}

export const formatIp = (ip: Ip): string => {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 255n)).join(".")
  const groups: Array<string> = []
  for (let i = 7; i >= 0; i--) groups.push(((ip.value >> BigInt(16 * i)) & 0xffffn).toString(16))
  return compressV6(groups)
}

/** RFC 5952 4.2: eight hex groups, the longest run (2+) of zero groups written `::` (first on ties). */
export const compressV6 = (groups: ReadonlyArray<string>): string => {
  let best = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== "0") {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === "0") j++
    if (j - i > bestLength) {
      best = i
      bestLength = j - i
    }
    i = j
  }
  if (best < 0) return groups.join(":")
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLength).join(":")}`
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128). Host bits must be zero. */
export const parseCidr = (text: string): Cidr | undefined => {
  const [addr = "", len, ...extra] = text.trim().split("/")
  if (extra.length > 0) return undefined
  const ip = parseIp(addr)
  if (!ip) return undefined
  const max = BITS[ip.family]
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return undefined
  const prefix = len === undefined ? max : Number(len)
  if (prefix > max) return undefined
  const base = ip.value & mask(ip.family, prefix)
  return { family: ip.family, base, prefix }
}

const mask = (family: 4 | 6, prefix: number): bigint => {
  const bits = BigInt(BITS[family])
  const all = (1n << bits) - 1n
  return prefix === 0 ? 0n : (all >> (bits - BigInt(prefix))) << (bits - BigInt(prefix))
}

export const contains = (cidr: Cidr, ip: Ip): boolean =>
  cidr.family === ip.family && (ip.value & mask(ip.family, cidr.prefix)) === cidr.base

export const formatCidr = (cidr: Cidr): string =>
  `${formatIp({ family: cidr.family, value: cidr.base })}/${cidr.prefix}`

/** Parses `ALLOW_TARGETS`; the first unparsable entry is returned as the error. */
export const parseAllowList = (
  entries: ReadonlyArray<string>
):
  | { readonly ok: true; readonly cidrs: ReadonlyArray<Cidr> }
  | { readonly ok: false; readonly bad: string } => {
  const cidrs: Array<Cidr> = []
  for (const entry of entries) {
    const cidr = parseCidr(entry)
    if (!cidr) return { ok: false, bad: entry }
    cidrs.push(cidr)
  }
  return { ok: true, cidrs }
}
