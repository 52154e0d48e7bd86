/**
 * What a tenant's key may read of a domain's private data (received reports, history): only that of
 * the domains its tenant has verified (docs/access.md). Another domain is 403 saying so, which tells
 * nothing of what is held for it; a store that cannot tell refuses too. `tenant` undefined is the
 * operator or the open default, who read every domain's.
 */
import { Effect } from "effect"
import { Forbidden } from "../../api/Errors.ts"
import { VerifiedDomains } from "../../monitor/access/VerifiedDomains.ts"

export const ownedBy = (
  tenant: string | undefined,
  domain: string,
  what: "reports" | "history"
): Effect.Effect<void, Forbidden, VerifiedDomains> =>
  tenant === undefined
    ? Effect.void
    : Effect.flatMap(VerifiedDomains, (d) => d.isVerified(tenant, domain)).pipe(
        Effect.orElseSucceed(() => false),
        Effect.filterOrFail(
          (verified) => verified,
          () =>
            new Forbidden({
              error: `${domain} is not verified for this API key's tenant: its ${what} ${what === "reports" ? "are" : "is"} read once the tenant verifies it (POST /api/domains)`
            })
        ),
        Effect.asVoid
      )
