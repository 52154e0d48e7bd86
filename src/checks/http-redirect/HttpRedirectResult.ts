/**
 * The result of the HTTP redirect check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Strings } from "../../records/Schemas.ts"

export const HostVerdict = Schema.Literal(
  "redirects-to-https",
  "https-only",
  "redirects-elsewhere-first",
  "redirects-via-http",
  "no-redirect",
  "not-https",
  "no-web-server",
  "absent",
  "unknown"
)
export type HostVerdict = typeof HostVerdict.Type

/** The verdicts that keep visitors on HTTPS from the first hop. */
export const SECURE: ReadonlySet<HostVerdict> = new Set(["redirects-to-https", "https-only"])

export const HostRedirect = Schema.Struct({
  host: Schema.String,
  /**
   * redirects-to-https (first hop to https on the same host, ends on https); https-only (nothing on
   * port 80, HTTPS answers); redirects-elsewhere-first (first hop to another host, ends on https);
   * redirects-via-http (first hop stays on http, ends on https); no-redirect (content over http);
   * not-https (the chain does not end on https, or is broken); no-web-server (neither port 80 nor
   * HTTPS answers: the headers check's HTTPS rule carries that); absent (no such host); unknown.
   */
  verdict: HostVerdict,
  /** What http://<host>/ answered, and its Location. */
  statusCode: Schema.NullOr(Schema.Int),
  location: Schema.NullOr(Schema.String),
  /** The first redirect goes to https://<host> itself. */
  firstHopSameHost: Schema.NullOr(Schema.Boolean),
  hops: Schema.Array(
    Schema.Struct({ url: Schema.String, status: Schema.Int, location: Schema.NullOr(Schema.String) })
  ),
  finalUrl: Schema.NullOr(Schema.String),
  finalHttps: Schema.NullOr(Schema.Boolean),
  /** Strict-Transport-Security on https://<host>/'s own answer (null: not sent or not reached). */
  hsts: Schema.NullOr(Schema.String),
  /** As the headers check rates it; `unknown` when https://<host>/ was never reached. */
  hstsRating: Schema.Literal("good", "weak", "ineffective", "absent", "unknown"),
  error: Schema.optional(Schema.String),
  issues: Strings
})
export type HostRedirect = typeof HostRedirect.Type

export const HttpRedirectResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  apex: HostRedirect,
  www: HostRedirect,
  /**
   * www.<domain> behaves as the apex: both keep visitors on HTTPS from the first hop (or both do
   * not), and both send HSTS (or neither). Null when www does not exist or either is unknown.
   */
  wwwConsistent: Schema.NullOr(Schema.Boolean),
  issues: Strings
})
export type HttpRedirectResult = typeof HttpRedirectResult.Type
