/**
 * Whether a report can be believed to come from who it says (docs/reports-in.md "Authenticity").
 * Anyone can mail a report "from google.com"; a report that arrives by mail is trusted when the
 * message passes DMARC for its From domain (RFC 7489: SPF for the connecting address and MAIL
 * FROM, or DKIM, aligned with the From domain), a report posted over HTTP when it carries an API
 * key with `reports:write`. The verdict is stored with the report and counted in the summaries.
 */
import { Schema } from "effect"
import { Nullable } from "../records/Schemas.ts"

export const Authenticity = Schema.Struct({
  /** The report's message passed DMARC for its From domain, or it was posted with an API key. */
  authenticated: Schema.Boolean,
  /** The domain it was authenticated for (the From domain); null when not authenticated, or by a key. */
  authenticatedFor: Nullable(Schema.String),
  /** How it was authenticated, or why not ("no DKIM signature and SPF softfail for 192.0.2.1"). */
  authentication: Schema.String
})
export type Authenticity = typeof Authenticity.Type

/** A report posted over HTTP by whoever could, while no API key exists (the embedded default). */
export const ANONYMOUS_POST: Authenticity = {
  authenticated: false,
  authenticatedFor: null,
  authentication: "posted over HTTP without an API key"
}

/** A report posted over HTTP with an API key holding `reports:write`, or from the machine itself. */
export const postedWith = (who: string): Authenticity => ({
  authenticated: true,
  authenticatedFor: null,
  authentication: `posted over HTTP ${who}`
})
