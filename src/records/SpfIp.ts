/**
 * IP address and CIDR arithmetic for SPF: the `ip4-network` / `ip6-network` grammars of RFC 7208
 * section 5.6 (dotted quads without leading zeros, RFC 4291 2.2 text forms) and prefix merging for
 * flattening. Pure; addresses are bigints so IPv4 and IPv6 share one code path.
 */

export type Family = 4 | 6

export interface Cidr {
  readonly family: Family
  /** Network address with the host bits cleared. */
  readonly network: bigint
  readonly prefix: number
}

const QNUM = /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])$/

/** RFC 7208 section 5.6 `ip4-network`: four `qnum`s, no leading zeros. */
export const parseIp4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!QNUM.test(part)) return undefined
    value = (value << 8n) | BigInt(Number(part))
  }
  return value
}

/** RFC 4291 section 2.2 text forms, including `::` compression and an embedded dotted quad. */
export const parseIp6 = (text: string): bigint | undefined => {
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined
  let body = text
  let tail: Array<number> = []
  const lastColon = body.lastIndexOf(":")
  if (body.includes(".")) {
    const v4 = parseIp4(body.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)]
    body = body.slice(0, lastColon + 1)
    // "::1.2.3.4" leaves "::", "a:b:c:d:e:f:1.2.3.4" leaves "a:b:c:d:e:f:" whose colon belongs to the quad
    if (body.endsWith(":") && !body.endsWith("::")) body = body.slice(0, -1)
  }
  const halves = body.split("::")
  if (halves.length > 2) return undefined
  const group = (s: string) => (s === "" ? [] : s.split(":"))
  const head = group(halves[0]!)
  const rest = halves.length === 2 ? group(halves[1]!) : []
  for (const g of [...head, ...rest]) if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
  const given = head.length + rest.length + tail.length
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined
  const zeros = halves.length === 2 ? 8 - given : 0
  const words = [
    ...head.map((g) => parseInt(g, 16)),
    ...Array<number>(zeros).fill(0),
    ...rest.map((g) => parseInt(g, 16)),
    ...tail
  ]
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n)
}

const bits = (family: Family) => (family === 4 ? 32 : 128)

const mask = (family: Family, prefix: number): bigint => {
  const total = bits(family)
  return ((1n << BigInt(total)) - 1n) ^ ((1n << BigInt(total - prefix)) - 1n)
}

export const makeCidr = (family: Family, address: bigint, prefix: number): Cidr => ({
  family,
  network: address & mask(family, prefix),
  prefix
})

export const formatIp = (family: Family, value: bigint): string => {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".")
  const words = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => Number((value >> s) & 0xffffn))
  // RFC 5952 section 4.2: compress the longest run (length >= 2) of zero words, the first on ties
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const hex = words.map((w) => w.toString(16))
  if (best < 0) return hex.join(":")
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`
}

/** `ip4:` / `ip6:` term text for a prefix; the full-length prefix is left implicit. */
export const formatCidr = (c: Cidr): string => {
  const base = `ip${c.family}:${formatIp(c.family, c.network)}`
  return c.prefix === bits(c.family) ? base : `${base}/${c.prefix}`
}

const contains = (outer: Cidr, inner: Cidr) =>
  outer.family === inner.family &&
  outer.prefix <= inner.prefix &&
  (inner.network & mask(outer.family, outer.prefix)) === outer.network

/**
 * The smallest set of prefixes covering exactly the same addresses: duplicates and covered prefixes
 * dropped, sibling halves joined. IPv4 first, then IPv6, each in address order (stable output).
 */
export const mergeCidrs = (input: ReadonlyArray<Cidr>): Array<Cidr> => {
  const out: Array<Cidr> = []
  for (const family of [4, 6] as const) {
    let list = input
      .filter((c) => c.family === family)
      .map((c) => makeCidr(family, c.network, c.prefix))
      .sort((a, b) => (a.network < b.network ? -1 : a.network > b.network ? 1 : a.prefix - b.prefix))
    let changed = true
    while (changed) {
      changed = false
      const next: Array<Cidr> = []
      for (const c of list) {
        const last = next[next.length - 1]
        if (last && contains(last, c)) {
          changed ||= last.prefix !== c.prefix || last.network !== c.network
          continue
        }
        if (last && last.prefix === c.prefix && c.prefix > 0) {
          const parent = makeCidr(family, last.network, c.prefix - 1)
          if (parent.network === last.network && contains(parent, c)) {
            next[next.length - 1] = parent
            changed = true
            continue
          }
        }
        next.push(c)
      }
      list = next
    }
    out.push(...list)
  }
  return out
}
