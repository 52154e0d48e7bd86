/**
 * The result of the HTTPS record check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Strings } from "../../records/Schemas.ts"

export const AlpnCheck = Schema.Struct({
  protocol: Schema.String,
  /** The server selected it when offered alone; null when that could not be tried (h3, no handshake). */
  negotiated: Schema.NullOr(Schema.Boolean),
  note: Schema.optional(Schema.String)
})

const ServiceRecord = Schema.Struct({
  owner: Schema.String,
  priority: Schema.Int,
  /** The name clients connect to ("." in the record: the owner itself, RFC 9460 2.5). */
  target: Schema.String,
  alpn: Strings,
  noDefaultAlpn: Schema.Boolean,
  port: Schema.NullOr(Schema.Int),
  ipv4hint: Strings,
  ipv6hint: Strings,
  /** An ECH config list is published (reported, never scored). */
  ech: Schema.Boolean,
  mandatory: Strings,
  alpnChecks: Schema.Array(AlpnCheck),
  /** Every hint is an address of the target (true), one is not (false), or the addresses are unknown. */
  hintsMatch: Schema.NullOr(Schema.Boolean),
  issues: Strings
})

export const HttpsRecordResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  /** present: at least one record; absent: none (normal); unknown: the lookup failed. */
  status: Schema.Literal("present", "absent", "unknown"),
  /** The AliasMode chain followed (the apex first). */
  chain: Strings,
  records: Schema.Array(ServiceRecord),
  /** Records that do not parse (RFC 9460 2.2: clients ignore them). */
  malformed: Strings,
  echPresent: Schema.Boolean,
  /** Every record tells the truth (true), one lies (false), or nothing could be verified (null). */
  consistent: Schema.NullOr(Schema.Boolean),
  issues: Strings,
  note: Schema.optional(Schema.String)
})
export type HttpsRecordResult = typeof HttpsRecordResult.Type
