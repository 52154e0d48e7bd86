/**
 * The result of the REQUIRETLS check: its Schema (the type, the OpenAPI schema, what stored scans
 * hold), in a module of its own so that its rules import it without a circle.
 */
import { Schema } from "effect"
import { DateTime } from "../../records/Schemas.ts"

export const RequireTlsServer = Schema.Struct({
  host: Schema.String,
  address: Schema.String,
  /** It advertises REQUIRETLS after STARTTLS (true), it does not (false), or that is unknown (null). */
  requireTls: Schema.NullOr(Schema.Boolean),
  /** Why it does not, or why that is unknown; null when it advertises REQUIRETLS. */
  note: Schema.NullOr(Schema.String)
})

export const RequireTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  /**
   * all: every mail server advertises REQUIRETLS; some: some do and some do not; none: none that
   * answered does; no-mail: the domain has no mail server (null MX, or no MX and no address);
   * unknown: the MX lookup failed, or the servers could not be asked.
   */
  status: Schema.Literal("all", "some", "none", "no-mail", "unknown"),
  servers: Schema.Array(RequireTlsServer),
  /** The verdict in one sentence. */
  note: Schema.String
})
export type RequireTlsResult = typeof RequireTlsResult.Type
