/**
 * The result of the BIMI check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"
import { SvgCheck } from "../../records/BimiSvg.ts"
import { AuthorityCheckFields } from "../../records/BimiVmc.ts"
import { Nullable, Strings } from "../../records/Schemas.ts"

export const BimiLogo = Schema.Struct({
  url: Schema.String,
  reachable: Schema.Boolean,
  httpStatus: Nullable(Schema.Int),
  contentType: Nullable(Schema.String),
  contentTypeOk: Schema.Boolean,
  size: Nullable(Schema.Int),
  maxSize: Schema.Int,
  sizeOk: Schema.Boolean,
  svg: Nullable(SvgCheck),
  valid: Schema.Boolean,
  error: Nullable(Schema.String)
})
export type BimiLogo = typeof BimiLogo.Type

const optional = <F extends Record<string, Schema.Schema.All>>(fields: F) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, Schema.optional(s)])) as {
    readonly [K in keyof F]: Schema.optional<F[K]>
  }

/** The fetch of the evidence document, and what it shows once fetched and parsed. */
export const BimiAuthority = Schema.Struct({
  url: Schema.String,
  reachable: Schema.Boolean,
  httpStatus: Nullable(Schema.Int),
  contentType: Nullable(Schema.String),
  size: Nullable(Schema.Int),
  valid: Schema.Boolean,
  error: Nullable(Schema.String),
  // Present once the document was fetched (absent when it could not be).
  ...optional(AuthorityCheckFields)
})
export type BimiAuthority = typeof BimiAuthority.Type

export const BimiResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  valid: Schema.Boolean,
  logoUrl: Nullable(Schema.String),
  authorityUrl: Nullable(Schema.String),
  logo: Nullable(BimiLogo),
  authority: Nullable(BimiAuthority),
  issues: Strings,
  warnings: Strings,
  declined: Schema.Boolean,
  /**
   * `lps=` (local-part selectors, newer drafts of draft-brand-indicators-for-message-identification):
   * the From local-parts this record is for, lower-cased; null when the record has no lps= (it
   * then applies to every sender). A malformed list is an issue, and the record is not valid.
   */
  localPartSelectors: Nullable(Schema.Array(Schema.String)),
  /** `avp=` (avatar preference): `brand` or `personal`; null when absent. */
  avatarPreference: Nullable(Schema.String),
  source: Nullable(Schema.String),
  inherited: Schema.Boolean,
  /** BIMI needs DMARC at enforcement: p=quarantine (pct=100) or reject, subdomains not none. */
  dmarc: Nullable(
    Schema.Struct({
      policy: Nullable(Schema.String),
      pct: Nullable(Schema.Int),
      eligible: Nullable(Schema.Boolean)
    })
  ),
  trademarkNote: Schema.String
})
export type BimiResult = typeof BimiResult.Type
