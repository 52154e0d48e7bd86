/**
 * The result of the takeover check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { RdapOutcome } from "../registration/Registration.ts"
import { DependencyUse as DependencyUseSchema } from "../registration/Dependencies.ts"
import { Status } from "../../kernel/Status.ts"

export const AliasResult = Schema.Struct({
  /** The name that is an alias (a CNAME owner). */
  name: Schema.String,
  chain: Strings,
  outcome: Schema.Literal("answer", "nodata", "nxdomain", "unknown"),
  /** `dangling`: the chain ends in NXDOMAIN; `unclaimed`: a hosting service's "no such site" page. */
  risk: Nullable(Schema.Literal("dangling", "unclaimed")),
  /** The hosting service the alias points into, when it is one we know. */
  service: Nullable(Schema.String),
  status: Status,
  message: Schema.String,
  /** The record to remove (or point elsewhere) when there is a risk. */
  remove: Nullable(Schema.String)
})
export type AliasResult = typeof AliasResult.Type

export const DependencyDns = Schema.Literal("exists", "nxdomain", "unanswered", "unknown")
export type DependencyDns = typeof DependencyDns.Type

export const DependencyRisk = Schema.Struct({
  domain: Schema.String,
  uses: Schema.Array(DependencyUseSchema),
  rdap: RdapOutcome,
  /** Its NS question: the name exists, does not (NXDOMAIN), or its servers failed (SERVFAIL). */
  dns: DependencyDns,
  risk: Nullable(Schema.Literal("unregistered", "nxdomain", "unanswered")),
  status: Status,
  message: Schema.String,
  /** The records of the scanned domain that name it, to remove when it is at risk. */
  remove: Strings
})
export type DependencyRisk = typeof DependencyRisk.Type

export const TakeoverResult = Schema.Struct({
  domain: Schema.String,
  timestamp: DateTime,
  status: Status,
  /** The probed names that are aliases (names without a CNAME are left out). */
  aliases: Schema.Array(AliasResult),
  dependencies: Schema.Array(DependencyRisk),
  /** Whether RDAP was asked (RDAP_BOOTSTRAP); without it, registration is not known. */
  rdapConfigured: Schema.Boolean,
  issues: Strings,
  /** The names the owner listed (`names=`), each probed as www is; absent when none were. */
  names: Schema.optional(Strings)
})
export type TakeoverResult = typeof TakeoverResult.Type
