/**
 * The verified-domains group (docs/access.md): a tenant claims a domain, publishes the challenge
 * TXT record, has it verified, and may then read the domain's received reports and publish them.
 * The shapes are the claim's own (monitor/access/DomainModel.ts).
 */
import type { HttpApiEndpoint, HttpMethod } from "@effect/platform"
import { HttpApiGroup, HttpApiMiddleware, HttpApiSchema } from "@effect/platform"
import { Context, Schema } from "effect"
import { DomainClaimList, DomainClaimView, PublicReports } from "../monitor/access/DomainModel.ts"
import { Endpoint } from "./Docs.ts"
import { Domain, DomainPath } from "./Domain.ts"
import { BadRequest, Forbidden, NotFound, Unavailable } from "./Errors.ts"
import { bearerGuard } from "./KeyGuard.ts"
import { cheap } from "./Cost.ts"

export { DomainClaimList, DomainClaimView } from "../monitor/access/DomainModel.ts"

/** The tenant whose domains a request manages: the tenant of the API key it presents. */
export class DomainsOwner extends Context.Tag("DomainsOwner")<DomainsOwner, { readonly tenant: string }>() {}

/**
 * Who may manage verified domains: an API key, any scope, acting for its tenant. A domain is
 * verified for a tenant, so the machine itself and anonymous clients have none to manage (401).
 */
export class DomainsAccess extends HttpApiMiddleware.Tag<DomainsAccess>()("DomainsAccess", {
  ...bearerGuard,
  provides: DomainsOwner
}) {}

/**
 * An operation on one claimed domain (`/domains/:domain`): 400 for a domain that is no domain, 404
 * for one the tenant has not claimed, 503 while the claims cannot be read.
 */
const onClaim = <Name extends string, Method extends HttpMethod.HttpMethod>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method>
) => endpoint.setPath(DomainPath).addError(BadRequest).addError(NotFound).addError(Unavailable)

const claim = Endpoint.post("claim", "/domains", {
  summary: "Claim a domain",
  description:
    "Starts verifying that the key's tenant controls the domain: answers the challenge, a TXT record to publish at _domain-audit-challenge.<domain>, then POST /domains/{domain}/verify. Claiming a domain the tenant claimed before answers that claim, its token unchanged. Two tenants may claim and verify the same domain."
})
  .setPayload(Schema.Struct({ domain: Domain }))
  .addSuccess(DomainClaimView, { status: 201 })
  .addError(BadRequest)
  .addError(Unavailable)

const list = Endpoint.get("list", "/domains", {
  summary: "List the tenant's domains",
  description:
    "Every domain the key's tenant has claimed: its state (pending, verified, lapsed), the record to publish, when it was last verified and checked."
})
  .addSuccess(DomainClaimList)
  .addError(Unavailable)

const get = Endpoint.get("get", "/domains/:domain", {
  summary: "Read a claimed domain",
  description: "The tenant's claim on the domain: its state and the record to publish."
})
  .pipe(onClaim)
  .addSuccess(DomainClaimView)

const del = Endpoint.del("delete", "/domains/:domain", {
  summary: "Give up a claimed domain",
  description:
    "Deletes the tenant's claim: its keys no longer read the domain's reports, and its publication of them ends. Other tenants' claims stay."
})
  .annotateContext(cheap)
  .pipe(onClaim)
  .addSuccess(HttpApiSchema.NoContent)

const verify = Endpoint.post("verify", "/domains/:domain/verify", {
  summary: "Verify a claimed domain",
  description:
    "Looks the challenge up now, through the service's validating resolver (a signed zone's answer must validate: a bogus one is a failed look-up). Found: verified. Not found: a pending claim stays pending, a verified one lapses. A failed look-up (timeout, SERVFAIL) changes nothing; lastCheck says why. Verification is also re-checked daily."
})
  .pipe(onClaim)
  .addSuccess(DomainClaimView)

const publicReports = Endpoint.put("publicReports", "/domains/:domain/public-reports", {
  summary: "Publish or withdraw a domain's received reports",
  description:
    "With public: true, what the DMARC and TLS reports received for the domain say appears in its public report, page and PDF; otherwise they say the reports are private. Only a tenant that has verified the domain may (403 otherwise)."
})
  .annotateContext(cheap)
  .pipe(onClaim)
  .setPayload(PublicReports)
  .addSuccess(DomainClaimView)
  .addError(Forbidden)

export class DomainsApi extends HttpApiGroup.make("domains")
  .add(claim)
  .add(list)
  .add(get)
  .add(del)
  .add(verify)
  .add(publicReports)
  .middleware(DomainsAccess) {}
