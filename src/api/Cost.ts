/**
 * What a request on an endpoint costs the service, declared on the endpoint itself
 * (`.annotateContext(cheap)`) and read by the edge's admission control (http/edge/RouteCosts.ts),
 * which gives each class its own per-client bucket and sends only costly work through the global
 * gate (docs/errors.md "Rate limits").
 *
 * - `costly`, the default: anything that scans, checks, crawls or probes, or may (a stored item
 *   read through a scan's history, a summary that looks sources up).
 * - `cheap`: pure computation or one stored row: the generators, a report received, a stored
 *   snapshot, the hall of fame, a deletion.
 * - `exempt`: `/health`, so that probes see the truth about a busy service.
 * - `cheapUnless(param)`: cheap, but costly when the request's query names `param` (a record
 *   generator asked to preview its record over a domain scans that domain).
 */
import { Context } from "effect"

export type RouteClass = "exempt" | "cheap" | "costly"

/** A class, or cheap unless the query holds the parameter named. */
export type Costing = RouteClass | { readonly cheapUnless: string }

export class Cost extends Context.Tag("domain-audit/Cost")<Cost, Costing>() {}

/** Pure computation or one stored row: its own, larger bucket, and never the global gate. */
export const cheap = Context.make(Cost, "cheap")

/** Outside every limit: the health probe. */
export const exempt = Context.make(Cost, "exempt")

/** Cheap, but costly when the request's query names `param`. */
export const cheapUnless = (param: string) => Context.make(Cost, { cheapUnless: param })

/** What an endpoint declares; costly when it declares nothing. */
export const costingOf = (annotations: Context.Context<never>): Costing =>
  Context.getOption(annotations, Cost).pipe((o) => (o._tag === "Some" ? o.value : "costly"))

/** The class of one request on an endpoint that declares `costing`, its query (`a=1&b=2`) given. */
export const classOf = (costing: Costing, query: string): RouteClass =>
  typeof costing === "string"
    ? costing
    : query !== "" && new URLSearchParams(query).has(costing.cheapUnless)
      ? "costly"
      : "cheap"
