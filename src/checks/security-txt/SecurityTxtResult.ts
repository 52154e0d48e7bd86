/**
 * The result of the security.txt check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Strings } from "../../records/Schemas.ts"

export const Verdict = Schema.Literal(
  "valid",
  "invalid",
  "expired",
  "legacy",
  "redirected-elsewhere",
  "missing",
  "unknown"
)

export const SecurityTxtResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  /** https://<domain>/.well-known/security.txt, where RFC 9116 §3 puts the file. */
  url: Schema.String,
  /**
   * valid; invalid (a MUST of RFC 9116 broken); expired; legacy (a file only at the root path,
   * however good); redirected-elsewhere (the well-known URL redirects to another host); missing;
   * unknown (the fetch timed out or DNS failed).
   */
  verdict: Verdict,
  found: Schema.Boolean,
  location: Schema.NullOr(Schema.Literal("well-known", "legacy")),
  /** The URL the judged file was read from (after redirects within the host). */
  fetchedUrl: Schema.NullOr(Schema.String),
  statusCode: Schema.NullOr(Schema.Int),
  contentType: Schema.NullOr(Schema.String),
  redirects: Schema.Array(Schema.Struct({ url: Schema.String, status: Schema.Int, location: Schema.String })),
  /** Where the well-known URL redirects when that is another host (not followed). */
  redirectedTo: Schema.NullOr(Schema.String),
  contact: Strings,
  expires: Schema.NullOr(Schema.String),
  /** Whole days from the check to Expires; negative once expired. */
  expiresInDays: Schema.NullOr(Schema.Int),
  encryption: Strings,
  acknowledgments: Strings,
  preferredLanguages: Schema.NullOr(Strings),
  canonical: Strings,
  policy: Strings,
  hiring: Strings,
  csaf: Strings,
  signed: Schema.Boolean,
  /**
   * The OpenPGP cleartext signature (§2.3): whether its block is well formed. `verified` is always
   * unknown: checking it needs the signer's key, which the file does not carry in a trusted way.
   */
  signature: Schema.NullOr(
    Schema.Struct({
      wellFormed: Schema.Boolean,
      hash: Schema.NullOr(Schema.String),
      verified: Schema.Literal("unknown"),
      problems: Strings
    })
  ),
  errors: Strings,
  warnings: Strings,
  /** Why nothing could be read, when the fetch failed. */
  fetchError: Schema.optional(Schema.String)
})
export type SecurityTxtResult = typeof SecurityTxtResult.Type
