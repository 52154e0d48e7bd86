/** Handlers of the verified-domains group (docs/access.md). */
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "../../Api.ts"
import { DomainsAccessLive } from "../edge/Access.ts"
import {
  claimDomain,
  deleteDomain,
  getDomain,
  listDomains,
  publishReports,
  verifyDomain
} from "./DomainRoutes.ts"

export const DomainHandlers = HttpApiBuilder.group(Api, "domains", (handlers) =>
  handlers
    .handle("claim", ({ payload }) => claimDomain(payload.domain))
    .handle("list", () => listDomains)
    .handle("get", ({ path }) => getDomain(path.domain))
    .handle("delete", ({ path }) => deleteDomain(path.domain))
    .handle("verify", ({ path }) => verifyDomain(path.domain))
    .handle("publicReports", ({ path, payload }) => publishReports(path.domain, payload.public))
).pipe(Layer.provide(DomainsAccessLive))
