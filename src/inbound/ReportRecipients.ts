/**
 * Whose report address a recipient is, and whose a report becomes (docs/access.md, "Report
 * addresses" and "Unclaimed reports"): each tenant receives at `<tenant tag>@<REPORTS_DOMAINS[0]>`,
 * so a report mailed to an address no tenant has is refused at RCPT (550, RFC 5321 §4.2.2) rather
 * than kept for no one; a report mailed to a tenant for a domain that tenant has not verified is
 * kept apart (unclaimed) until it does. While no tenant exists (the embedded default, no API key at
 * all) every address at REPORTS_DOMAINS is taken and every report stored, as before. The answers
 * come from the tenants' store (monitor/access/), provided by the app.
 */
import { Context, Effect, Schema } from "effect"

/** What RCPT is answered for a local part: taken, refused as no tenant's, or the store is down (4xx). */
export type RecipientVerdict = "accept" | "unknown" | "unavailable"

/** The tenants' store cannot answer now: the sender retries (SMTP 451), nothing is kept for no one. */
export class OwnersUnavailable extends Schema.TaggedError<OwnersUnavailable>()("OwnersUnavailable", {
  message: Schema.String
}) {}

/**
 * Where a report goes once its domain is read: the store the summaries read, or kept apart for the
 * tenants whose addresses took it (none of whom has verified the domain).
 */
export type Route =
  { readonly to: "store" } | { readonly to: "unclaimed"; readonly tenants: ReadonlyArray<string> }

export const STORE: Route = { to: "store" }

export class ReportRecipients extends Context.Tag("ReportRecipients")<
  ReportRecipients,
  {
    readonly check: (localPart: string) => Effect.Effect<RecipientVerdict>
    /** The tenant a local part is the address of; null while no key exists (every report is stored). */
    readonly tenantOf: (localPart: string) => Effect.Effect<string | null, OwnersUnavailable>
    /** Whether `tenant` holds a verified claim on `domain`. */
    readonly verifiedBy: (tenant: string, domain: string) => Effect.Effect<boolean, OwnersUnavailable>
  }
>() {}

/**
 * The route of a report on `domains` (a TLS report may cover several; the first is the report's own)
 * mailed to the addresses of `tenants` (null: the open default): stored when one of them has
 * verified every domain, kept apart for them all otherwise, so that a report naming a domain no
 * recipient owns moves no one's verdicts.
 */
export const routeFor = (
  recipients: ReportRecipients["Type"],
  tenants: ReadonlyArray<string | null>,
  domains: ReadonlyArray<string>
): Effect.Effect<Route, OwnersUnavailable> => {
  if (tenants.length === 0 || tenants.includes(null)) return Effect.succeed(STORE)
  const named = [...new Set(tenants.filter((t): t is string => t !== null))]
  const ownsAll = (tenant: string) =>
    Effect.map(
      Effect.forEach(new Set(domains), (domain) => recipients.verifiedBy(tenant, domain)),
      (verified) => verified.every((v) => v)
    )
  return Effect.map(Effect.forEach(named, ownsAll), (owners): Route =>
    owners.some((v) => v) ? STORE : { to: "unclaimed", tenants: named }
  )
}
