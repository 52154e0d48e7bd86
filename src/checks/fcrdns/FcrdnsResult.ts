/**
 * The result of the forward-confirmed reverse DNS check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Nullable, Strings } from "../../records/Schemas.ts"
import { IMPLICIT_DESCRIPTION } from "../../kernel/MailServers.ts"
import { Status } from "../../kernel/Status.ts"
import { reportHead } from "../../kernel/ReportHead.ts"

export const AddressResult = Schema.Struct({
  hostname: Schema.String,
  /** The host is the implicit MX: the domain has no MX, mail goes to its own address (RFC 5321 5.1). */
  implicit: Schema.Boolean.annotations({ description: IMPLICIT_DESCRIPTION }),
  ip: Schema.String,
  ptrRecords: Strings,
  /** The PTR name that resolves back to `ip`, or null. */
  confirmedName: Nullable(Schema.String),
  /** true / false when settled; null when a lookup failed and nothing confirmed. */
  forwardConfirmed: Nullable(Schema.Boolean),
  matchesMxHost: Schema.Boolean,
  genericName: Schema.Boolean,
  status: Status,
  message: Schema.String
})
export type AddressResult = typeof AddressResult.Type

/** The check's verdict: the spec's FCrDNS result without its self link. */
export const FcrdnsReport = Schema.Struct({
  ...reportHead,
  result: Schema.Struct({
    checked: Schema.Boolean,
    status: Status,
    results: Schema.Array(AddressResult),
    issues: Strings
  }),
  citationUrl: Schema.String
})
export type FcrdnsReport = typeof FcrdnsReport.Type

/** What GET /email/fcrdns serves: the verdict and the endpoint's own URL (built by the HTTP layer). */
export const FcrdnsResult = Schema.Struct({ ...FcrdnsReport.fields, apiUrl: Schema.String })
export type FcrdnsResult = typeof FcrdnsResult.Type
