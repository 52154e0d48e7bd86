/**
 * The DNS vocabulary shared by the Resolver and every check that reads DNS.
 * A failed lookup (timeout, SERVFAIL, REFUSED, network error, malformed reply) is a `DnsError`,
 * never an empty answer: callers report it as "unknown", not as "missing" (DESIGN.md principle 4).
 */
import { Schema } from "effect"

/** The types every domain's records are made of, which a lookup asks when none is named. */
export const CommonRecordTypes = ["A", "AAAA", "MX", "TXT", "NS", "SOA", "CAA", "CNAME", "PTR"] as const

export const RecordTypes = [
  ...CommonRecordTypes,
  "SRV",
  "DNSKEY",
  "DS",
  "RRSIG",
  "NSEC3PARAM",
  "TLSA",
  // RFC 9460: rdata kept as hex (records/SvcbRecord.ts reads it).
  "SVCB",
  "HTTPS"
] as const
export type RecordType = (typeof RecordTypes)[number]

/** One resource record: `data` is the decoded rdata, `text` its presentation form (zone-file rdata). */
export interface DnsRecord {
  readonly name: string
  readonly type: string
  readonly ttl: number
  readonly data: unknown
  readonly text: string
}

export interface DnsFlags {
  readonly aa: boolean
  readonly tc: boolean
  readonly ra: boolean
  readonly ad: boolean
  readonly cd: boolean
}

/**
 * A reply that settles the question: data (`answer`), the name exists without that type (`nodata`),
 * or the name does not exist (`nxdomain`). SERVFAIL and REFUSED are not here: they are `DnsError`s.
 */
export interface DnsAnswer {
  readonly name: string
  readonly type: RecordType
  readonly outcome: "answer" | "nodata" | "nxdomain"
  readonly rcode: string
  readonly flags: DnsFlags
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authority: ReadonlyArray<DnsRecord>
  /** The upstream that answered, as `address:port`. */
  readonly resolver: string
  readonly elapsedMs: number
  readonly fromCache: boolean
}

export class DnsError extends Schema.TaggedError<DnsError>()("DnsError", {
  name: Schema.String,
  type: Schema.String,
  reason: Schema.Literal("timeout", "servfail", "refused", "network", "malformed", "other"),
  message: Schema.String
}) {}
