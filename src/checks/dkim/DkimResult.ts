/**
 * The result of the DKIM check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"
import { DkimKeyStatus } from "../../records/DkimKey.ts"
import { Nullable, Strings } from "../../records/Schemas.ts"

export const DkimSelector = Schema.Struct({
  selector: Schema.String,
  name: Schema.String,
  record: Schema.String,
  valid: Schema.Boolean,
  keyType: Schema.String,
  /** Bits measured from the key material; null when it does not decode (or is revoked). */
  keyLength: Nullable(Schema.Int),
  revoked: Schema.Boolean,
  testing: Schema.Boolean,
  status: DkimKeyStatus,
  provider: Nullable(Schema.String),
  requested: Schema.Boolean,
  hashAlgorithms: Nullable(Strings),
  errors: Strings,
  warnings: Strings,
  /** Other DKIM-looking TXT records at the same name (RFC 6376 3.6.2.2 leaves the choice open). */
  otherRecords: Strings
})

/** The union of DKIM shapes A and B, plus discovery details. */
export const DkimResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  /** Shape A */
  selectors_found: Strings,
  valid_keys: Schema.Int,
  /** Shape B */
  selectorsChecked: Strings,
  selectorsFound: Schema.Array(DkimSelector),
  hasDkim: Schema.Boolean,
  issues: Strings,
  /** Ours */
  warnings: Strings,
  /** `found`: at least one key; `not-found`: none among the selectors asked; `unknown`: look-ups failed. */
  discovery: Schema.Literal("found", "not-found", "unknown"),
  failedSelectors: Schema.Array(Schema.Struct({ selector: Schema.String, error: Schema.String })),
  note: Schema.String,
  /** How long asking every selector took, in ms (a "not found" asks them all). */
  lookupMs: Schema.optional(Schema.Finite),
  /**
   * `confirmed`: a key found (selector and strength in `stateDetail`); `not-confirmed`: no key under
   * the selectors tried (listed in `selectorsChecked`), DKIM may use another; `absent`:
   * `_domainkey.<domain>` does not exist (NXDOMAIN, RFC 8020), so no selector holds a key;
   * `unknown`: look-ups failed. Every new result has these four; results stored before they existed
   * (snapshots, history) lack them, hence optional.
   */
  state: Schema.optionalWith(Schema.Literal("confirmed", "not-confirmed", "absent", "unknown"), {
    exact: true
  }),
  stateDetail: Schema.optionalWith(Schema.String, { exact: true }),
  /** Selectors named by DMARC aggregate reports received for the domain, tried before the list. */
  reportedSelectors: Schema.optionalWith(Strings, { exact: true }),
  selectorsTried: Schema.optionalWith(Schema.Int, { exact: true })
})
export type DkimResult = typeof DkimResult.Type
