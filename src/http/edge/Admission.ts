/**
 * Admission control at the edge (DESIGN principle 10): the service is public and
 * unauthenticated, so it answers "not now" quickly rather than everything slowly.
 *
 * - Per-client token buckets for every endpoint, one for costly routes and one for cheap ones
 *   (RateLimit.ts, Limits.ts): beyond the burst, 429 with `Retry-After` (the seconds until a token
 *   is back); every answer carries the `RateLimit` and `RateLimit-Policy` fields.
 * - A global gate on costly work (scans, crawls, probes: anything that touches the network): at most
 *   `ADMISSION_CONCURRENCY` at once, a FIFO queue of `ADMISSION_QUEUE` waiting at most
 *   `ADMISSION_QUEUE_MS`; beyond, 503 with `Retry-After`. Memory and latency stay bounded because
 *   no more work is started than the process can finish.
 * - Costly requests are shed at once, instead of queueing, when this process is saturated by its own
 *   work: more in flight than the gate holds, or the event loop's thread busy nearly all of the last
 *   half second (`ADMISSION_MAX_CPU_PERCENT`, Saturation.ts), and either way only once a gate's
 *   worth of requests is in flight or of clients was just served (Gatekeeper.ts). The gate counts
 *   requests, but CPU is what a warm scan spends, and /health shares the loop (docs/bench.md); a
 *   client that sends one request at a time is never refused.
 * - A client back on the same connection before the `Retry-After` it was given there waits for it
 *   (`EARLY_RETRY_HOLD_MS`), then is judged anew: a crowd that ignores `Retry-After` sends one
 *   request per refusal period instead of thousands a second.
 * - `/health` is exempt from all of it, so probes see the truth about a busy service, and is answered
 *   by the gatekeeper, from the state `Health.ts` refreshes in the background.
 *
 * The buckets and the meters run in node's request event, before the Effect runtime
 * (Gatekeeper.ts): a flood of refusals then costs little more than parsing it, and holding the
 * early retries keeps it small, which is what keeps /health fast under one. This file holds the
 * route classes, the buckets and the gate.
 */
import { Effect } from "effect"
import { AppConfig } from "../../Config.ts"
import { Limits } from "./Limits.ts"
import { isPagePath, pageRouteClass } from "../pages/PagePaths.ts"
import type { RouteClass } from "../../api/Cost.ts"
import { declaredCost } from "./RouteCosts.ts"
import { type PermitStats, Permits, type Refusal } from "../../bounds/Permits.ts"

export type { RouteClass } from "../../api/Cost.ts"

/**
 * A request's class: what its endpoint declares (api/Cost.ts, through RouteCosts.ts), which may
 * depend on the query (`query`, without its `?`). Off the
 * contract: the docs and the OpenAPI document are local, the pages are classed by PagePaths.ts (a
 * report page scans: costly), and a path the contract does not serve is costly for GET and POST
 * (the router answers 404, but nothing cheaper should be a way around the costly bucket) and cheap
 * for any other method (answered 405 without work).
 */
export const routeClass = (requestMethod: string, path: string, query = ""): RouteClass => {
  // HEAD runs the GET's handler (the router answers it with the GET), so it costs what the GET does.
  const method = requestMethod === "HEAD" ? "GET" : requestMethod
  const declared = declaredCost(method, path, query)
  if (declared !== undefined) return declared
  if (!path.startsWith("/api/")) return isPagePath(path) ? pageRouteClass(method, path) : "cheap"
  if (path.startsWith("/api/docs") || path === "/api/openapi.json") return "cheap"
  return method === "GET" || method === "POST" ? "costly" : "cheap"
}

export interface GateSettings {
  readonly concurrency: number
  readonly queue: number
  readonly queueMs: number
}

/** A refusal in the gate's error channel, apart from whatever the admitted effect may fail with. */
class Refused {
  readonly _tag = "Refused"
}

/**
 * The global gate: the one permit pool (`bounds/Permits.ts`) with a bounded queue whose wait is
 * bounded too, so memory and latency stay known; a permit passes straight from the leaving request
 * to the first waiter, and an interrupted waiter (client gone) can never leak a permit.
 */
export const makeGate = (
  settings: GateSettings,
  onRefuse: (why: Refusal, stats: PermitStats) => void = () => {}
) => {
  const permits = new Permits(settings.concurrency, { maxWaiting: settings.queue, onRefuse })
  /** Run `effect` within a permit, or `busy` at once when none comes within the queue rules. */
  const admit = <A, E, R, B>(
    effect: Effect.Effect<A, E, R>,
    busy: Effect.Effect<B>
  ): Effect.Effect<A | B, E, R> =>
    // The wait is bounded from when the request is run, not from when its effect was built
    Effect.suspend(() =>
      permits.around(effect, performance.now() + settings.queueMs, () => new Refused())
    ).pipe(
      Effect.catchIf(
        (e): e is Refused => e instanceof Refused,
        () => busy
      )
    )
  return {
    admit,
    permits: settings.concurrency,
    queue: settings.queue,
    stats: () => permits.stats(),
    /** Every permit taken and the queue full: a new costly request would be refused anyway. */
    full: () => permits.full(),
    /** The Retry-After of a refusal: the queue's longest wait, in whole seconds. */
    retryAfterS: Math.max(1, Math.ceil(settings.queueMs / 1000))
  } as const
}

export type Gate = ReturnType<typeof makeGate>

/**
 * The server's one gate, shared by the edge (which admits through it) and the gatekeeper (which
 * refuses at once when it is full, before the Effect runtime: a refusal that went through the
 * router cost ~1 ms of CPU, and a crowd of them filled the core that /health and the admitted scans
 * need; docs/bench.md).
 */
export class AdmissionGate extends Effect.Service<AdmissionGate>()("AdmissionGate", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const { refusals } = yield* Limits
    return makeGate(
      {
        concurrency: config.admissionConcurrency,
        queue: config.admissionQueue,
        queueMs: config.admissionQueueMs
      },
      (why, stats) => refusals.record(503, `shed-${why}`, stats)
    )
  }),
  dependencies: [Limits.Default]
}) {}
