/**
 * RPKI route-origin validation (RFC 6811) and what it reads: Validated ROA Payloads in the JSON
 * that rpki-client and Routinator export, and an address's route as the Team Cymru origin zones
 * answer it over DNS. Pure.
 */
import { type Cidr, formatCidr, parseCidr, parseIp } from "./IpAddress.ts"

/** One Validated ROA Payload (RFC 6811 §2): an origin AS may announce `prefix` up to `maxLength`. */
export interface Vrp {
  readonly asn: number
  readonly prefix: Cidr
  readonly maxLength: number
}

/** A route: the prefix announced and the AS that originates it. */
export interface Route {
  readonly prefix: Cidr
  readonly asn: number
}

export type RouteState = "valid" | "invalid" | "not-found"

const widthOf = (family: 4 | 6) => (family === 4 ? 32 : 128)

const maskOf = (family: 4 | 6, length: number) => {
  const width = BigInt(widthOf(family))
  return ((1n << BigInt(length)) - 1n) << (width - BigInt(length))
}

/** `192.0.2.0/24` or `2001:db8::/32` with its host bits zero (a bare address is not a prefix here). */
export const parsePrefix = (text: string): Cidr | null =>
  text.includes("/") ? (parseCidr(text) ?? null) : null

export const prefixText = formatCidr

/** Does `outer` cover `inner` (same family, not longer, same leading bits)? RFC 6811 §1 "Covered". */
export const covers = (outer: Cidr, inner: Cidr): boolean =>
  outer.family === inner.family &&
  outer.prefix <= inner.prefix &&
  (inner.base & maskOf(outer.family, outer.prefix)) === outer.base

/**
 * RFC 6811 §2: a route is valid when a covering VRP has its origin AS and a maximum length not
 * shorter than the route's prefix; invalid when VRPs cover it but none matches; not-found when no
 * VRP covers it. AS 0 in a VRP matches no route (RFC 6483 §4).
 */
export const validate = (
  route: Route,
  vrps: ReadonlyArray<Vrp>
): { state: RouteState; matched: Vrp | null } => {
  let covered = false
  for (const vrp of vrps) {
    if (!covers(vrp.prefix, route.prefix)) continue
    covered = true
    if (vrp.asn !== 0 && vrp.asn === route.asn && route.prefix.prefix <= vrp.maxLength)
      return { state: "valid", matched: vrp }
  }
  return { state: covered ? "invalid" : "not-found", matched: null }
}

/** `AS64500`, `as64500` or 64500 -> 64500; null when not a 32-bit AS number. */
export const parseAsn = (value: unknown): number | null => {
  const text =
    typeof value === "number" ? String(value) : typeof value === "string" ? value.replace(/^as/i, "") : ""
  if (!/^\d{1,10}$/.test(text)) return null
  const n = Number(text)
  return n <= 4_294_967_295 ? n : null
}

export interface VrpFile {
  readonly vrps: ReadonlyArray<Vrp>
  /** Entries left out because they were not VRPs (counted, so a broken export shows). */
  readonly skipped: number
}

/**
 * The `roas` array of rpki-client's JSON output and Routinator's `json`/`jsonext` formats:
 * `{"roas":[{"asn":"AS64500" | 64500,"prefix":"192.0.2.0/24","maxLength":24,"ta":"..."}]}`.
 * Null when the text is not such a document. `maxLength` shorter than the prefix is no VRP.
 */
export const parseVrpJson = (text: string): VrpFile | null => {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return null
  }
  const roas = (doc as { roas?: unknown } | null)?.roas
  if (!Array.isArray(roas)) return null
  const vrps: Array<Vrp> = []
  let skipped = 0
  for (const roa of roas as ReadonlyArray<Record<string, unknown>>) {
    const asn = parseAsn(roa?.asn)
    const prefix = typeof roa?.prefix === "string" ? parsePrefix(roa.prefix) : null
    const maxLength = roa?.maxLength ?? roa?.max_length ?? prefix?.prefix
    if (
      asn === null ||
      prefix === null ||
      typeof maxLength !== "number" ||
      !Number.isInteger(maxLength) ||
      maxLength < prefix.prefix ||
      maxLength > widthOf(prefix.family)
    )
      skipped++
    else vrps.push({ asn, prefix, maxLength })
  }
  return { vrps, skipped }
}

/**
 * The name to ask for an address's route in an origin zone (Team Cymru's convention): the IPv4
 * octets reversed under the IPv4 zone, the IPv6 nibbles reversed under the IPv6 zone (as in
 * in-addr.arpa and ip6.arpa, RFC 1035 3.5 and RFC 3596 2.5). Null when `ip` is not an address.
 */
export const originName = (ip: string, zone4: string, zone6: string): string | null => {
  const a = parseIp(ip)
  if (a === undefined) return null
  if (a.family === 4)
    return `${[0n, 8n, 16n, 24n].map((s) => String((a.value >> s) & 255n)).join(".")}.${zone4}`
  const hex = a.value.toString(16).padStart(32, "0")
  return `${hex.split("").reverse().join(".")}.${zone6}`
}

/**
 * One TXT answer of an origin zone: `"64500 | 192.0.2.0/24 | US | arin | 2000-01-01"`. Several
 * origins of one prefix are listed space-separated in the first field; each is a route. Empty
 * when the text is not such an answer.
 */
export const parseOriginTxt = (text: string): ReadonlyArray<Route> => {
  const fields = text.split("|").map((f) => f.trim())
  if (fields.length < 2) return []
  const prefix = parsePrefix(fields[1]!)
  if (prefix === null) return []
  return fields[0]!
    .split(/\s+/)
    .map(parseAsn)
    .filter((asn): asn is number => asn !== null)
    .map((asn) => ({ prefix, asn }))
}
