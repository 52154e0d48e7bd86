/**
 * The endpoints of the checks served alone, read from the registry: every check that declares
 * `served` (kernel/Served.ts) gets `GET <path>?domain=` in its group, its success the check's result
 * Schema, 400 for a domain that cannot be scanned, its summary and description, and its cost for
 * the edge (Cost.ts). A group places them among its hand-declared endpoints by rank, so /api/docs
 * lists them where the group's order puts them. http/handlers/ServedHandlers.ts answers them all.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Brand, Context } from "effect"
import { registry } from "../checks/index.ts"
import type { Registered } from "../kernel/Check.ts"
import type { Served, ServedGroup } from "../kernel/Served.ts"

export type { ServedGroup }
import { Cost } from "./Cost.ts"
import { domainCheck } from "./DomainCheck.ts"

/**
 * The name of an endpoint a check declares. Branded, so that the group's type tells them from the
 * hand-declared endpoints: the handlers answer every one of them with one handler.
 */
export type ServedName = string & Brand.Brand<"ServedName">
export const ServedName = Brand.nominal<ServedName>()

/** A check of the registry that is served alone. */
export type ServedCheck = Registered & { readonly served: Served }

const checks: ReadonlyArray<Registered> = registry

/** The checks served alone in `group`, in the registry's order. */
export const servedIn = (group: ServedGroup): ReadonlyArray<ServedCheck> =>
  checks.filter((check): check is ServedCheck => check.served?.group === group)

const endpointOf = ({ result, served }: ServedCheck) =>
  domainCheck(ServedName(served.name), served.path, result, served).annotateContext(
    Context.make(Cost, served.cost)
  )

/** Every endpoint a check declares, as the group's type knows it. */
export type ServedEndpoint = ReturnType<typeof endpointOf>

/**
 * The group `id`: its hand-declared endpoints, each with its rank, and the endpoints its checks
 * declare (`served.rank`), in rank order.
 */
export const withServed = <
  const Id extends ServedGroup,
  const Declared extends ReadonlyArray<readonly [number, HttpApiEndpoint.HttpApiEndpoint.Any]>
>(
  id: Id,
  declared: Declared
) => {
  const ranked: Array<readonly [number, Declared[number][1] | ServedEndpoint]> = [
    ...declared,
    ...servedIn(id).map((check) => [check.served.rank, endpointOf(check)] as const)
  ]
  ranked.sort(([a], [b]) => a - b)
  let group: HttpApiGroup.HttpApiGroup<Id, Declared[number][1] | ServedEndpoint, never> =
    HttpApiGroup.make(id)
  for (const [, endpoint] of ranked) {
    // `add` keys endpoints by name: a second one of the same name would replace the first unseen.
    if (Object.hasOwn(group.endpoints, endpoint.name))
      throw new Error(`two endpoints named ${endpoint.name} in the ${id} group`)
    group = group.add(endpoint)
  }
  return group
}
