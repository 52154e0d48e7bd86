/**
 * What a tenant's key may read of a domain's private data (received reports, history): only that of
 * the domains its tenant has verified (docs/access.md). Another domain is 403 saying so, which tells
 * nothing of what is held for it; a store that cannot tell is 503 (an outage to retry, not a "no").
 * `tenant` undefined is the operator or the open default, who read every domain's.
 */
import { Effect } from "effect"
import { Forbidden, Unavailable } from "../../api/Errors.ts"
import type { OwnersUnavailable } from "../../inbound/ReportRecipients.ts"
import { VerifiedDomains } from "../../monitor/access/VerifiedDomains.ts"

/** The tenants' store cannot answer now: an outage the client retries (503), not its fault. */
export const outage = (e: OwnersUnavailable) => new Unavailable({ error: `${e.message}; retry later` })

export const ownedBy = (
  tenant: string | undefined,
  domain: string,
  what: "reports" | "history"
): Effect.Effect<void, Forbidden | Unavailable, VerifiedDomains> =>
  tenant === undefined
    ? Effect.void
    : Effect.flatMap(VerifiedDomains, (d) => d.isVerified(tenant, domain)).pipe(
        Effect.mapError(outage),
        Effect.filterOrFail(
          (verified) => verified,
          () =>
            new Forbidden({
              error: `${domain} is not verified for this API key's tenant: its ${what} ${what === "reports" ? "are" : "is"} read once the tenant verifies it (POST /api/domains)`
            })
        ),
        Effect.asVoid
      )

/**
 * Whether a poster may post a report on `reported` (every domain it names: a TLS report may cover
 * several): a tenant's key (`reports:write`) for the domains its tenant has verified only, so that
 * no tenant's reports move the verdicts another reads; the operator and the open default (`tenant`
 * undefined) for any. 403 names the first domain not verified; a store that cannot tell is 503.
 */
export const mayPostFor =
  (domains: VerifiedDomains, tenant: string | undefined) =>
  (reported: ReadonlyArray<string>): Effect.Effect<void, Forbidden | Unavailable> =>
    tenant === undefined
      ? Effect.void
      : Effect.forEach(
          new Set(reported),
          (domain) =>
            domains.isVerified(tenant, domain).pipe(
              Effect.mapError(outage),
              Effect.filterOrFail(
                (verified) => verified,
                () =>
                  new Forbidden({
                    error: `${domain} is not verified for this API key's tenant: a tenant's key posts reports for the domains its tenant has verified only (POST /api/domains)`
                  })
              )
            ),
          { discard: true }
        )
