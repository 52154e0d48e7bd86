/**
 * The verified-domains routes over `monitor/access/VerifiedDomains.ts`: the tenant the request's key
 * acts for, and the contract's errors (no claim: 404; not verified: 403; the tenants' store
 * unavailable: 503, with Retry-After from the edge).
 */
import { Effect } from "effect"
import { Forbidden, NotFound } from "../../api/Errors.ts"
import { DomainsOwner } from "../../api/Domains.ts"
import type { OwnersUnavailable } from "../../inbound/ReportRecipients.ts"
import { UnclaimedReportsIn } from "../../inbound/UnclaimedReportsIn.ts"
import { type ClaimRefused, VerifiedDomains } from "../../monitor/access/VerifiedDomains.ts"
import { outage } from "./OwnedDomain.ts"

const refusal = (e: ClaimRefused | OwnersUnavailable) =>
  e._tag === "OwnersUnavailable"
    ? outage(e)
    : e.reason === "none"
      ? new NotFound({ error: e.message })
      : new Forbidden({ error: e.message })

/** The service and the tenant this request acts for. */
const asOwner = <A, R>(
  f: (d: VerifiedDomains, tenant: string) => Effect.Effect<A, ClaimRefused | OwnersUnavailable, R>
) =>
  Effect.flatMap(Effect.zip(VerifiedDomains, DomainsOwner), ([d, o]) => f(d, o.tenant)).pipe(
    Effect.mapError(refusal)
  )

export const claimDomain = (domain: string) =>
  Effect.flatMap(Effect.zip(VerifiedDomains, DomainsOwner), ([d, o]) => d.claim(o.tenant, domain)).pipe(
    Effect.mapError(outage)
  )

export const listDomains = Effect.flatMap(Effect.zip(VerifiedDomains, DomainsOwner), ([d, o]) =>
  d.list(o.tenant)
).pipe(Effect.mapError(outage))

export const getDomain = (domain: string) => asOwner((d, tenant) => d.get(tenant, domain))

export const deleteDomain = (domain: string) => asOwner((d, tenant) => d.remove(tenant, domain))

/**
 * Look the challenge up now; once verified, the reports the tenant's address received for the
 * domain while it was not are stored at once (docs/access.md "Unclaimed reports"). The answer does
 * not wait on a store that cannot take them now: the hourly pass does it then.
 */
export const verifyDomain = (domain: string) =>
  asOwner((d, tenant) =>
    Effect.tap(d.verify(tenant, domain), (claim) =>
      claim.state === "verified"
        ? Effect.flatMap(UnclaimedReportsIn, (u) => u.adopt(tenant, domain)).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("unclaimed reports not adopted yet", cause))
          )
        : Effect.void
    )
  )

export const publishReports = (domain: string, published: boolean) =>
  asOwner((d, tenant) => d.publish(tenant, domain, published))
