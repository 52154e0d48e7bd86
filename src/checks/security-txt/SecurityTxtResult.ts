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
   * The OpenPGP cleartext signature (§2.3): whether its block is well formed and, when the signer's
   * key is published where the file says (an https `Encryption` URL, or the Web Key Directory of a
   * `mailto:` contact), whether it verifies: `valid`, `bad` (the text or signature was altered, or
   * the key was not valid when it signed), or `unknown` (no key found, or none fetched).
   */
  signature: Schema.NullOr(
    Schema.Struct({
      wellFormed: Schema.Boolean,
      hash: Schema.NullOr(Schema.String),
      verified: Schema.Literal("valid", "bad", "unknown"),
      problems: Strings,
      /** Why the signature is what `verified` says (absent in scans stored before). */
      verification: Schema.optional(Schema.String),
      /** The key ids (hex) the signature names as its issuer. */
      signerKeyIds: Schema.optional(Strings),
      /** The signing key's fingerprint, when its key was found. */
      fingerprint: Schema.optional(Schema.NullOr(Schema.String)),
      signedAt: Schema.optional(Schema.NullOr(Schema.String)),
      /** The URL the signing key was read from. */
      keySource: Schema.optional(Schema.NullOr(Schema.String)),
      /** When the signing key expires; null when it never does (or it was not found). */
      keyExpires: Schema.optional(Schema.NullOr(Schema.String)),
      keyExpiresInDays: Schema.optional(Schema.NullOr(Schema.Int)),
      /** current; expiring (within 30 days); expired; no-expiry; null when the key was not found. */
      keyStatus: Schema.optional(
        Schema.NullOr(Schema.Literal("current", "expiring", "expired", "no-expiry"))
      ),
      /** Every place the key was looked for, in order. */
      keysTried: Schema.optional(
        Schema.Array(
          Schema.Struct({
            url: Schema.String,
            outcome: Schema.Literal("found", "not-found", "unknown"),
            detail: Schema.String
          })
        )
      )
    })
  ),
  errors: Strings,
  warnings: Strings,
  /** Why nothing could be read, when the fetch failed. */
  fetchError: Schema.optional(Schema.String)
})
export type SecurityTxtResult = typeof SecurityTxtResult.Type
