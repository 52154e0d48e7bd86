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

/** One ECHConfig of the record's `ech` value (RFC 9849 §4), as a client would read it. */
export const EchConfig = Schema.Struct({
  /** `0xfe0d` (RFC 9849); another version is listed and skipped, as clients skip it. */
  version: Schema.String,
  configId: Schema.NullOr(Schema.Int),
  /** The HPKE KEM (RFC 9180 §7.1) by name, or its code point when unknown. */
  kem: Schema.NullOr(Schema.String),
  publicKeyLength: Schema.NullOr(Schema.Int),
  /** Each HPKE suite as `KDF/AEAD`. */
  cipherSuites: Strings,
  maximumNameLength: Schema.NullOr(Schema.Int),
  /** The client-facing server's name, which the outer ClientHello carries in clear. */
  publicName: Schema.NullOr(Schema.String),
  /** Extension types, as `0x....`. */
  extensions: Strings,
  usable: Schema.Boolean,
  problems: Strings
}).annotations({ identifier: "EchConfig" })

/** The `ech` SvcParam decoded as an ECHConfigList (RFC 9848 §3): reported, never scored. */
export const EchConfigList = Schema.Struct({
  configs: Schema.Array(EchConfig),
  /** The list itself does not parse, or holds nothing a client can use. */
  problems: Strings,
  /** At least one configuration a client can use. */
  usable: Schema.Boolean
}).annotations({ identifier: "EchConfigList" })

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
  /** The ECH configurations decoded (absent without `ech`, and in scans stored before). */
  echConfig: Schema.optional(EchConfigList),
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
