/**
 * Whose report address a recipient is (docs/access.md, "Report addresses"): each tenant receives at
 * `<tenant>@<REPORTS_DOMAINS[0]>`, so a report mailed to an address no tenant has is refused at
 * RCPT (550, RFC 5321 §4.2.2) rather than kept for no one. While no tenant exists (the embedded
 * default, no API key at all) every address at REPORTS_DOMAINS is taken, as before. The answer comes
 * from the tenants' store (monitor/access/), provided by the app.
 */
import { Context, type Effect } from "effect"

/** What RCPT is answered for a local part: taken, refused as no tenant's, or the store is down (4xx). */
export type RecipientVerdict = "accept" | "unknown" | "unavailable"

export class ReportRecipients extends Context.Tag("ReportRecipients")<
  ReportRecipients,
  { readonly check: (localPart: string) => Effect.Effect<RecipientVerdict> }
>() {}
