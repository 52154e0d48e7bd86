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
 */
import { Context } from "effect"

export type RouteClass = "exempt" | "cheap" | "costly"

export class Cost extends Context.Tag("domain-audit/Cost")<Cost, RouteClass>() {}

/** Pure computation or one stored row: its own, larger bucket, and never the global gate. */
export const cheap = Context.make(Cost, "cheap")

/** Outside every limit: the health probe. */
export const exempt = Context.make(Cost, "exempt")

/** The class an endpoint declares; costly when it declares none. */
export const costOf = (annotations: Context.Context<never>): RouteClass =>
  Context.getOption(annotations, Cost).pipe((o) => (o._tag === "Some" ? o.value : "costly"))
