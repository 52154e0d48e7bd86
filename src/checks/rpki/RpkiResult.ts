/**
 * The result of the RPKI check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { Status } from "../../kernel/Status.ts"
import { reportHead } from "../../kernel/ReportHead.ts"

export const AddressStates = ["valid", "invalid", "not-found", "unknown"] as const

const RouteResult = Schema.Struct({
  prefix: Schema.String,
  asn: Schema.Int,
  state: Schema.Literal("valid", "invalid", "not-found"),
  /** The VRP that made it valid: `AS64500 192.0.2.0/24-24`. */
  vrp: Nullable(Schema.String)
})

export const RpkiAddress = Schema.Struct({
  service: Schema.Literal("web", "mx", "ns"),
  host: Schema.String,
  ip: Schema.String,
  routes: Schema.Array(RouteResult),
  /** invalid when a route is invalid; valid when every route is; not-found otherwise; unknown when unasked. */
  state: Schema.Literal(...AddressStates),
  status: Status,
  message: Schema.String
}).annotations({ identifier: "RpkiAddress" })
export type RpkiAddress = typeof RpkiAddress.Type

export const RpkiSource = Schema.Struct({
  /** off: no RPKI_VRPS configured; unavailable: configured but unreadable. */
  status: Schema.Literal("off", "loaded", "unavailable"),
  vrps: Nullable(Schema.Int),
  loadedAt: Nullable(DateTime),
  reason: Nullable(Schema.String)
})

export const RpkiReport = Schema.Struct({
  ...reportHead,
  result: Schema.Struct({
    status: Status,
    source: RpkiSource,
    addresses: Schema.Array(RpkiAddress),
    issues: Strings
  }),
  citationUrl: Schema.String
}).annotations({ identifier: "RpkiReport" })
export type RpkiReport = typeof RpkiReport.Type
