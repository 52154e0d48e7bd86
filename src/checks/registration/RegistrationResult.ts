/**
 * The result of the registration check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { DependencyUse } from "./Dependencies.ts"
import { Status } from "../../kernel/Status.ts"

export const RdapOutcome = Schema.Literal("registered", "not-registered", "unsupported", "unknown", "off")
export type RdapOutcome = typeof RdapOutcome.Type

export const ExpiryBand = Schema.Literal("expired", "7", "14", "30")
export type ExpiryBand = typeof ExpiryBand.Type

export const RegistrationEntry = Schema.Struct({
  /** A registrable domain: the scanned domain's own, or a dependency's. */
  domain: Schema.String,
  /** Why the scanned domain depends on it (none for its own registration). */
  uses: Schema.Array(DependencyUse),
  /** What RDAP said: `not-registered` is a 404 from the registry's server. */
  rdap: RdapOutcome,
  rdapUrl: Nullable(Schema.String),
  expires: Nullable(DateTime),
  daysLeft: Nullable(Schema.Int),
  /** The warning threshold crossed (30, 14, 7 days) or `expired`; null when further away. */
  band: Nullable(ExpiryBand),
  /** RFC 9083 4.6 status values. */
  statuses: Strings,
  status: Status,
  message: Schema.String
})
export type RegistrationEntry = typeof RegistrationEntry.Type

export const RegistrationResult = Schema.Struct({
  domain: Schema.String,
  timestamp: DateTime,
  /** Whether an RDAP source (`RDAP_BOOTSTRAP`) was configured. */
  rdapConfigured: Schema.Boolean,
  status: Status,
  registration: RegistrationEntry,
  dependencies: Schema.Array(RegistrationEntry),
  issues: Strings
})
export type RegistrationResult = typeof RegistrationResult.Type
