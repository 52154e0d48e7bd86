/**
 * What a domain owner does about a blocklisting (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): the cause first, the delisting request after.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  blocklisted: guide({
    why: "A mail server address of the domain is on a blocklist that many receivers consult: they reject your mail or put it in spam.",
    steps: [
      "Find the listed address and the list in the report, and read the reason on the list's lookup page.",
      "Stop the cause: a compromised mailbox or web form sending spam, an open relay, or sending to bought address lists.",
      "Request removal on the list's web site once the cause is fixed (repeat listings take longer to clear).",
      "Scan again after the list's stated delay."
    ],
    providers: {
      "google-workspace":
        "Addresses shared by Google or Microsoft are managed by them: report the listing to their support.",
      "microsoft-365":
        "Addresses shared by Google or Microsoft are managed by them: report the listing to their support.",
      "route53-ses":
        "A listed SES shared address is handled by AWS; a dedicated address is yours to fix and delist."
    },
    references: ["rfc5782"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
