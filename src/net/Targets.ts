/**
 * The outbound address policy: which IP addresses the service may connect to.
 *
 * A public scanner must not become a proxy into its own network (SSRF): every address a request
 * would reach is classified against the IANA special-purpose registries (RFC 6890, RFC 4291 §2.4,
 * RFC 6598 CGNAT, RFC 4193 ULA, RFC 3879 site-local) and refused unless an `ALLOW_TARGETS` CIDR
 * covers it. Pure: no I/O, so it is exhaustively property-tested.
 */

import { type Cidr, type Ip, contains, parseCidr, parseIp } from "../records/IpAddress.ts"

/** Why an address is refused. */
export type Refusal =
  | "unspecified"
  | "this-network"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "ipv4-mapped"
  | "unique-local"
  | "site-local"

export type Verdict =
  { readonly ok: true; readonly ip: Ip } | { readonly ok: false; readonly refusal: Refusal }

// ---------------------------------------------------------------------------------------------
// Classification

const block = (text: string, refusal: Refusal): readonly [Cidr, Refusal] => [parseCidr(text)!, refusal]

/** IPv4 special-purpose blocks (RFC 6890 and the IANA registry) that are not reachable targets. */
const V4_BLOCKS: ReadonlyArray<readonly [Cidr, Refusal]> = [
  block("0.0.0.0/8", "this-network"),
  block("10.0.0.0/8", "private"),
  block("100.64.0.0/10", "cgnat"),
  block("127.0.0.0/8", "loopback"),
  block("169.254.0.0/16", "link-local"),
  block("172.16.0.0/12", "private"),
  block("192.0.0.0/24", "reserved"),
  block("192.0.2.0/24", "documentation"),
  block("192.31.196.0/24", "reserved"),
  block("192.52.193.0/24", "reserved"),
  block("192.88.99.0/24", "reserved"),
  block("192.168.0.0/16", "private"),
  block("192.175.48.0/24", "reserved"),
  block("198.18.0.0/15", "benchmarking"),
  block("198.51.100.0/24", "documentation"),
  block("203.0.113.0/24", "documentation"),
  block("224.0.0.0/4", "multicast"),
  block("255.255.255.255/32", "broadcast"),
  block("240.0.0.0/4", "reserved")
]

/** IPv6 blocks (RFC 4291, RFC 6890, RFC 4193, RFC 3879, RFC 9637) checked before "not 2000::/3". */
const V6_BLOCKS: ReadonlyArray<readonly [Cidr, Refusal]> = [
  block("::/128", "unspecified"),
  block("::1/128", "loopback"),
  block("::ffff:0:0/96", "ipv4-mapped"),
  block("fc00::/7", "unique-local"),
  block("fe80::/10", "link-local"),
  block("fec0::/10", "site-local"),
  block("ff00::/8", "multicast"),
  block("2001:db8::/32", "documentation"),
  block("3fff::/20", "documentation"),
  block("2001::/23", "reserved"),
  block("64:ff9b:1::/48", "reserved"),
  block("100::/64", "reserved")
]

const GLOBAL_UNICAST = parseCidr("2000::/3")!
const NAT64 = parseCidr("64:ff9b::/96")!
const SIX_TO_FOUR = parseCidr("2002::/16")!

/**
 * The reason an address must not be contacted, or undefined for a public unicast address.
 * Addresses that embed an IPv4 address (NAT64 well-known prefix RFC 6052, 6to4 RFC 3056) are judged
 * by the embedded address, so `64:ff9b::7f00:1` is loopback.
 */
export const classify = (ip: Ip): Refusal | undefined => {
  if (ip.family === 4) return V4_BLOCKS.find(([c]) => contains(c, ip))?.[1]
  const hit = V6_BLOCKS.find(([c]) => contains(c, ip))
  if (hit) return hit[1]
  if (contains(NAT64, ip)) return classify({ family: 4, value: ip.value & 0xffffffffn })
  if (contains(SIX_TO_FOUR, ip)) return classify({ family: 4, value: (ip.value >> 80n) & 0xffffffffn })
  if (!contains(GLOBAL_UNICAST, ip)) return "reserved"
  return undefined
}

/** The policy decision: public addresses pass, others only when an allowed CIDR covers them. */
export const vet = (ip: Ip, allow: ReadonlyArray<Cidr>): Verdict => {
  const refusal = classify(ip)
  if (refusal === undefined || allow.some((c) => contains(c, ip))) return { ok: true, ip }
  return { ok: false, refusal }
}

/** `vet` for an address in text form; unparsable text is refused as reserved. */
export const vetText = (text: string, allow: ReadonlyArray<Cidr>): Verdict => {
  const ip = parseIp(text)
  return ip ? vet(ip, allow) : { ok: false, refusal: "reserved" }
}

/**
 * Host names that name the local machine or a private network by convention (RFC 6761 localhost,
 * RFC 6762 .local, RFC 8375 home.arpa, ICANN's .internal) or a single label (search-domain
 * expansion). These are refused without resolving them; the address policy still decides for
 * everything else after resolution.
 */
export const isInternalHostname = (host: string): boolean => {
  const h = host.toLowerCase().replace(/\.$/, "")
  if (!h.includes(".")) return true
  return /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|corp|localdomain|invalid)$/.test(h)
}
