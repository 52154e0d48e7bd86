/**
 * Admission control at the edge (DESIGN principle 10): the service is public and
 * unauthenticated, so it answers "not now" quickly rather than everything slowly.
 *
 * - Per-client token buckets for every endpoint, one for costly routes and one for cheap ones:
 *   beyond the burst, 429 with `Retry-After` (the seconds until a token is back).
 * - A global gate on costly work (scans, crawls, probes: anything that touches the network): at most
 *   `ADMISSION_CONCURRENCY` at once, a FIFO queue of `ADMISSION_QUEUE` waiting at most
 *   `ADMISSION_QUEUE_MS`; beyond, 503 with `Retry-After`. Memory and latency stay bounded because
 *   no more work is started than the process can finish.
 * - When the event loop already lags (`ADMISSION_MAX_LAG_MS`) or was busy most of the last 100 ms
 *   (`ADMISSION_MAX_BUSY_PERCENT`), costly requests get 503 at once: the gate counts requests, but
 *   CPU is what a warm scan spends, and /health shares the loop. A saturated loop reads every
 *   ready client in one turn, so its turns grow with the crowd; shedding before it saturates keeps
 *   them short (docs/bench.md).
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

/** How a route is treated: `exempt` (health), `cheap` (pure computation, docs) or `costly`. */
export type RouteClass = "exempt" | "cheap" | "costly"

/** Classify by path: generators, docs, the OpenAPI document and stored snapshots are local; the rest reach out. */
export const routeClass = (requestMethod: string, path: string): RouteClass => {
  // HEAD runs the GET's handler (the router answers it with the GET), so it costs what the GET does.
  const method = requestMethod === "HEAD" ? "GET" : requestMethod
  if (path === "/api/health" || path === "/api/health/") return "exempt"
  if (!path.startsWith("/api/")) return "cheap"
  if (path.startsWith("/api/docs") || path === "/api/openapi.json" || path === "/api/hall-of-fame")
    return "cheap"
  if (method === "POST" && /\/generate\/?$/.test(path)) return "cheap"
  // Reading a stored snapshot is one database row (creating one, POST or the legacy GET, scans).
  if (method === "GET" && /^\/api\/report\/snapshot\/[^/]+\/?$/.test(path)) return "cheap"
  if (method !== "GET" && method !== "POST") return "cheap" // answered 405 without work
  return "costly"
}

export interface Bucket {
  readonly burst: number
  readonly perMinute: number
}

/**
 * Token buckets per client key. Full buckets are forgotten (they carry no information), so memory
 * is bounded by the clients active within one refill period, and by `maxKeys` at worst.
 */
export const makeBuckets = (bucket: Bucket, maxKeys = 100_000) => {
  const state = new Map<string, { tokens: number; at: number }>()
  const perMs = bucket.perMinute / 60_000
  const refill = (entry: { tokens: number; at: number }, now: number) => {
    entry.tokens = Math.min(bucket.burst, entry.tokens + (now - entry.at) * perMs)
    entry.at = now
  }
  const prune = (now: number) => {
    for (const [key, entry] of state) {
      refill(entry, now)
      if (entry.tokens >= bucket.burst) state.delete(key)
    }
    // Still full of active keys (an address sweep): start over rather than grow without bound.
    if (state.size >= maxKeys) state.clear()
  }
  /** Take a token: 0 when admitted, else the whole seconds to wait for one. */
  const take = (key: string, now: number): number => {
    let entry = state.get(key)
    if (entry === undefined) {
      if (state.size >= maxKeys) prune(now)
      entry = { tokens: bucket.burst, at: now }
      state.set(key, entry)
    } else refill(entry, now)
    if (entry.tokens >= 1) {
      entry.tokens -= 1
      return 0
    }
    return perMs > 0 ? Math.max(1, Math.ceil((1 - entry.tokens) / perMs / 1000)) : 60
  }
  return { take, size: () => state.size } as const
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
export const makeGate = (settings: GateSettings) => {
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
    if (waiting.length >= settings.queue) return resume(Effect.succeed(false))
    let granted = false
    const grant = () => {
      granted = true
      clearTimeout(timer)
      resume(Effect.succeed(true))
    }
    const timer = setTimeout(() => {
      const i = waiting.indexOf(grant)
      if (i >= 0) waiting.splice(i, 1)
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
  effect: Effect.map(AppConfig, (config) =>
    makeGate({
      concurrency: config.admissionConcurrency,
      queue: config.admissionQueue,
      queueMs: config.admissionQueueMs
    })
  )
}) {}
