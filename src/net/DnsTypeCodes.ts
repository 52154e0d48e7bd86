/**
 * DNS type codes (RFC 1035 3.2.2 and each type's RFC) by name and number, and a type as dns-packet
 * encodes it in a query.
 */
import type { RecordType as DnsPacketType } from "dns-packet"

const TYPE_NAMES: Record<number, string> = {
  1: "A",
  2: "NS",
  5: "CNAME",
  6: "SOA",
  12: "PTR",
  15: "MX",
  16: "TXT",
  28: "AAAA",
  33: "SRV",
  39: "DNAME",
  41: "OPT",
  43: "DS",
  46: "RRSIG",
  47: "NSEC",
  48: "DNSKEY",
  50: "NSEC3",
  51: "NSEC3PARAM",
  52: "TLSA",
  64: "SVCB",
  65: "HTTPS",
  257: "CAA"
}
const TYPE_NUMBERS: Record<string, number> = Object.fromEntries(
  Object.entries(TYPE_NAMES).map(([n, name]) => [name, Number(n)])
)

/** RFC 3597 5: unknown types are `TYPEnnn`. */
export const typeName = (n: number): string => TYPE_NAMES[n] ?? `TYPE${n}`
export const typeNumber = (name: string): number | undefined =>
  TYPE_NUMBERS[name] ?? (/^TYPE(\d+)$/.exec(name) ? Number(name.slice(4)) : undefined)

/**
 * A type as dns-packet encodes it: by name when it knows the name, else by number (its `UNKNOWN_n`
 * spelling): it writes type 0 for a name it does not know (HTTPS and SVCB, RFC 9460), which a
 * resolver answers with SERVFAIL for another question.
 */
export const wireType = (type: string): DnsPacketType =>
  (KNOWN_BY_DNS_PACKET.has(type) ? type : `UNKNOWN_${typeNumber(type) ?? 0}`) as DnsPacketType
const KNOWN_BY_DNS_PACKET = new Set(
  "A AAAA CAA CNAME DNAME DNSKEY DS MX NS NSEC NSEC3 NSEC3PARAM PTR RRSIG SOA SRV TLSA TXT OPT ANY".split(" ")
)
