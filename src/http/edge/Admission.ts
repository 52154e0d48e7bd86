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

/** How a route is treated: `exempt` (health), `cheap` (pure computation, docs) or `costly`. */
export type RouteClass = "exempt" | "cheap" | "costly"

/**
 * Classify by path: generators, docs, the OpenAPI document and stored snapshots are local; the rest
 * reach out. A generator asked to preview its record over a domain (`?domain=`) scans it: costly.
 * Pages outside /api are classed by PagePaths.ts (a report page scans: costly).
 */
export const routeClass = (requestMethod: string, path: string, query = ""): RouteClass => {
  // HEAD runs the GET's handler (the router answers it with the GET), so it costs what the GET does.
  const method = requestMethod === "HEAD" ? "GET" : requestMethod
  if (path === "/api/health" || path === "/api/health/") return "exempt"
  if (!path.startsWith("/api/")) return isPagePath(path) ? pageRouteClass(method, path) : "cheap"
  if (path.startsWith("/api/docs") || path === "/api/openapi.json" || path === "/api/hall-of-fame")
    return "cheap"
  if (method === "POST" && /\/generate\/?$/.test(path))
    return new URLSearchParams(query).has("domain") ? "costly" : "cheap"
  // A report posted by a receiver is parsed within fixed limits and stored; no network work.
  if (method === "POST" && /^\/api\/reports\/(dmarc|tls|failure)$/.test(path)) return "cheap"
  // Reading a stored snapshot is one database row (creating one, POST or the legacy GET, scans).
  if (method === "GET" && /^\/api\/report\/snapshot\/[^/]+\/?$/.test(path)) return "cheap"
  if (method !== "GET" && method !== "POST") return "cheap" // answered 405 without work
  return "costly"
}

export interface GateSettings {
  readonly concurrency: number
  readonly queue: number
  readonly queueMs: number
}

/**
 * The global gate. Hand-written rather than `Effect.Semaphore` plus a timeout so that the queue
 * length is bounded and known, a permit passes straight from the leaving request to the first
 * waiter, and an interrupted waiter (client gone) can never leak a permit.
 */
export const makeGate = (
  settings: GateSettings,
  onRefuse: (why: "queue-full" | "queue-wait", stats: { active: number; waiting: number }) => void = () => {}
) => {
  let active = 0
  const waiting: Array<() => void> = []
  const leave = () => {
    const next = waiting.shift()
    if (next) next()
    else active--
  }
  /** true: admitted (call `leave` when done); false: the queue is full or the wait ran out. */
  const enter: Effect.Effect<boolean> = Effect.async<boolean>((resume) => {
    if (active < settings.concurrency) {
      active++
      return resume(Effect.succeed(true))
    }
    if (waiting.length >= settings.queue) {
      onRefuse("queue-full", { active, waiting: waiting.length })
      return resume(Effect.succeed(false))
    }
    let granted = false
    const grant = () => {
      granted = true
      clearTimeout(timer)
      resume(Effect.succeed(true))
    }
    const timer = setTimeout(() => {
      const i = waiting.indexOf(grant)
      if (i >= 0) waiting.splice(i, 1)
      onRefuse("queue-wait", { active, waiting: waiting.length })
      resume(Effect.succeed(false))
    }, settings.queueMs)
    waiting.push(grant)
    return Effect.sync(() => {
      clearTimeout(timer)
      const i = waiting.indexOf(grant)
      if (i >= 0) waiting.splice(i, 1)
      else if (granted) leave() // granted as the client left: pass the permit on
    })
  })
  /** Run `effect` within a permit, or `busy` at once when none comes within the queue rules. */
  const admit = <A, E, R, B>(effect: Effect.Effect<A, E, R>, busy: Effect.Effect<B>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(enter), (admitted): Effect.Effect<A | B, E, R> =>
        admitted ? restore(effect).pipe(Effect.ensuring(Effect.sync(leave))) : (busy as Effect.Effect<A | B>)
      )
    )
  return {
    admit,
    permits: settings.concurrency,
    queue: settings.queue,
    stats: () => ({ active, waiting: waiting.length }),
    /** Every permit taken and the queue full: a new costly request would be refused anyway. */
    full: () => active >= settings.concurrency && waiting.length >= settings.queue,
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
