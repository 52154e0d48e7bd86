/**
 * The result of the security headers check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { ConfigValues } from "../../records/SecurityHeaders.ts"
import { HeaderOutputs } from "../../records/SecurityHeadersOutputs.ts"
import { DateTime, Strings } from "../../records/Schemas.ts"
import { PageCsp } from "../csp/PagePolicy.ts"
import { CookiesResult, CorsResult, SriJudgement } from "./WebContent.ts"

export const HeaderEntry = Schema.Struct({
  /** One of `INSPECTED` (served as a string). */
  name: Schema.String,
  present: Schema.Boolean,
  value: Schema.NullOr(Schema.String),
  /** Spec: pass (present and effective), missing (absent or ignored by browsers), unknown. */
  status: Schema.Literal("pass", "missing", "unknown"),
  /**
   * Quality beyond presence: strong values, weak ones (a pass), unsafe ones (applied, but without
   * the protection: not a pass) and present-but-ignored ones.
   */
  rating: Schema.Literal("good", "weak", "unsafe", "ineffective", "absent", "unknown"),
  issues: Strings
})
export type HeaderEntry = typeof HeaderEntry.Type

export const HeadersResult = Schema.Struct({
  domain: Schema.String,
  scannedAt: DateTime,
  url: Schema.String,
  finalUrl: Schema.NullOr(Schema.String),
  statusCode: Schema.NullOr(Schema.Int),
  httpsAvailable: Schema.Boolean,
  headerFetchTimedOut: Schema.Boolean,
  note: Schema.optional(Schema.String),
  /** Why the page could not be read, for failures other than a timeout. */
  fetchError: Schema.optional(Schema.String),
  /**
   * The site's HTTPS certificate is not accepted (expired, untrusted, wrong name); the page was read
   * past it without verification. Absent when the certificate is fine or no handshake completed.
   */
  certificateError: Schema.optional(Schema.String),
  /** When the site's certificate expires (its notAfter); absent when no handshake completed. */
  certificateExpiresAt: Schema.optional(Schema.String),
  current: Schema.Array(HeaderEntry),
  missing: Strings,
  recommended: ConfigValues,
  outputs: HeaderOutputs,
  warnings: Strings,
  /**
   * The page's Content Security Policy as `POST /csp/scan` reads it (checks/csp/PagePolicy.ts):
   * header, Report-Only header and meta element, where the policy comes from and what a meta
   * policy cannot do. Absent when the page could not be read.
   */
  csp: Schema.optional(PageCsp),
  /** The cookies the page sets, judged as the MDN HTTP Observatory does (docs/security-headers.md). */
  cookies: Schema.optional(CookiesResult),
  /** Subresource Integrity of the page's scripts from other sites (from the first 64 KiB of the page). */
  sri: Schema.optional(SriJudgement),
  /** Cross-origin reads the page allows (a request with an Origin); absent when that request failed. */
  cors: Schema.optional(CorsResult)
})
export type HeadersResult = typeof HeadersResult.Type
