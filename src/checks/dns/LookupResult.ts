/**
 * The result of the DNS records check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime } from "../../records/Schemas.ts"

export const LookupRecord = Schema.Struct({
  type: Schema.String,
  name: Schema.String,
  ttl: Schema.Int,
  /** Presentation form; TXT strings joined as one value (RFC 7208 3.3). */
  data: Schema.String
})
export type LookupRecord = typeof LookupRecord.Type

/** Shape B of the DNS lookup result, plus shape A's non-conflicting fields (success, cached, timestamp). */
export const LookupResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  records: Schema.Record({ key: Schema.String, value: Schema.Array(LookupRecord) }).annotations({
    description:
      "type -> records of the answer (a CNAME chain included, each item names its own type); a type whose lookup failed is absent and listed in errors"
  }),
  outcomes: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "type -> answer, nodata, nxdomain, or the failure reason (timeout, servfail, refused ...)"
  }),
  errors: Schema.Array(Schema.Struct({ type: Schema.String, reason: Schema.String, message: Schema.String })),
  responseTime: Schema.Int,
  resolver: Schema.String,
  /** Whether every answer came from our cache. */
  cached: Schema.Boolean,
  /** Whether every answer carried the AD bit (DNSSEC-validated by the resolver). */
  dnssecValidated: Schema.Boolean,
  timestamp: DateTime
})
export type LookupResult = typeof LookupResult.Type
