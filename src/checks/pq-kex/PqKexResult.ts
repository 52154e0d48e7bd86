/**
 * The result of the post-quantum key-exchange check: its Schema (the type, the OpenAPI schema, what
 * stored scans hold), in a module of its own so that its rules import it without a circle.
 */
import { Schema } from "effect"
import { DateTime } from "../../records/Schemas.ts"

/**
 * What one server took when offered the hybrid groups first: `hybrid` (a post-quantum hybrid such
 * as X25519MLKEM768), `classical` (an elliptic curve or finite-field group, or TLS 1.2 and below),
 * `no-tls` (nothing to judge: no HTTPS listens, or the MX offers no STARTTLS), `unknown` (no
 * answer in time, a failure, an alert), `not-checked` (the scan's depth does not ask).
 */
export const PqKexVerdict = Schema.Literal("hybrid", "classical", "no-tls", "unknown", "not-checked")
export type PqKexVerdict = typeof PqKexVerdict.Type

export const PqKexServer = Schema.Struct({
  /** `web`: port 443 of the domain or its www host; `mail`: an MX address, after STARTTLS. */
  service: Schema.Literal("web", "mail"),
  host: Schema.String,
  address: Schema.String,
  verdict: PqKexVerdict,
  /** The group it took (`X25519MLKEM768`, `x25519`, ...); null when none was named. */
  group: Schema.NullOr(Schema.String),
  /** It named the group in a HelloRetryRequest (it did not take the key share offered); null when no group. */
  helloRetry: Schema.NullOr(Schema.Boolean),
  /** Why the verdict is what it is, in one sentence. */
  note: Schema.String
})
export type PqKexServer = typeof PqKexServer.Type

/**
 * One part's verdict (the web site, the mail servers): `hybrid` every server that answered takes a
 * hybrid; `partial` some do and some do not; `classical` none does; `not-applicable` no server
 * (no address, no MX, no TLS); `unknown` the servers could not be asked; `not-checked` the scan's
 * depth does not ask.
 */
export const PqKexPartStatus = Schema.Literal(
  "hybrid",
  "partial",
  "classical",
  "not-applicable",
  "unknown",
  "not-checked"
)
export type PqKexPartStatus = typeof PqKexPartStatus.Type

export const PqKexPart = Schema.Struct({ status: PqKexPartStatus, note: Schema.String })

export const PqKexResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  web: PqKexPart,
  mail: PqKexPart,
  servers: Schema.Array(PqKexServer)
})
export type PqKexResult = typeof PqKexResult.Type
