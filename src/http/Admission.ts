/**
 * Admission control at the edge (DESIGN principle 10, issue 12): the service is public and
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
 *   here, from the state `Health.ts` refreshes in the background.
 *
 * The buckets and the lag check run in node's request event, before the Effect runtime: a flood of
 * refusals then costs little more than parsing it, and holding the early retries keeps it small,
 * which is what keeps /health fast under one.
 */
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { EventLoopUtilization } from "node:perf_hooks"
import { AppConfig } from "../Config.ts"
import type { Cidr } from "../net/Targets.ts"
import { resolveClient } from "./ClientAddress.ts"
import { type HealthAnswer, writeHealth } from "./Health.ts"

/** How a route is treated: `exempt` (health), `cheap` (pure computation, docs) or `costly`. */
export type RouteClass = "exempt" | "cheap" | "costly"

/** Classify by path: generators, docs, the OpenAPI document and stored snapshots are local; the rest reach out. */
export const routeClass = (method: string, path: string): RouteClass => {
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

export interface GatekeeperSettings {
  readonly trustedProxies: ReadonlyArray<Cidr>
  readonly rateCostlyBurst: number
  readonly rateCostlyPerMinute: number
  readonly rateCheapBurst: number
  readonly rateCheapPerMinute: number
  readonly admissionMaxLagMs: number
  readonly admissionMaxBusyPercent: number
  readonly earlyRetryHoldMs: number
}

/**
 * How late a 10 ms timer fires, as the worst of the last few ticks and of the one now due (the
 * event loop's backlog), and the share of the last ~100 ms the loop was busy
 * (`eventLoopUtilization`: not waiting for I/O, including time the thread wanted a CPU and had
 * none). Both include the turn under way, so a long one is seen while it lasts, not after.
 */
const makeLagMeter = () => {
  const TICK = 10
  const WINDOW = 100
  const recent = [0, 0, 0, 0, 0]
  // Utilisation snapshots with their times, one a tick: the window is measured in time, not ticks
  // (ticks come late exactly when the loop is busy).
  const snapshots: Array<{ at: number; elu: EventLoopUtilization }> = []
  let last = performance.now()
  let i = 0
  const timer = setInterval(() => {
    const now = performance.now()
    recent[i++ % recent.length] = Math.max(0, now - last - TICK)
    last = now
    snapshots.push({ at: now, elu: performance.eventLoopUtilization() })
    while (snapshots.length > 2 && snapshots[1]!.at <= now - WINDOW) snapshots.shift()
  }, TICK)
  timer.unref()
  return {
    lag: () => Math.max(...recent, performance.now() - last - TICK),
    busy: () => {
      const since = snapshots[0]
      return since === undefined ? 0 : performance.eventLoopUtilization(since.elu).utilization
    },
    stop: () => clearInterval(timer)
  }
}

interface Refusal {
  readonly status: 429 | 503
  readonly error: string
  readonly retryAfter: number
}

const refuse = (res: ServerResponse, { status, error, retryAfter }: Refusal) => {
  const body = JSON.stringify(status === 429 ? { error, retryAfter } : { error })
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "retry-after": String(retryAfter)
  })
  res.end(body)
}

/** Held requests at most, whatever the connections: beyond, an early retry is judged at once. */
const MAX_HELD = 10_000
/** Held requests judged per millisecond once their time has come. */
const RELEASE_PER_TURN = 16

/**
 * The first look at every request, in node's `request` event: true when it was taken here
 * (answered: 429 over the client's bucket, 503 for costly work while the loop lags or the gate is
 * full; or held, see below), false to pass it on now. `pass` hands a held request on later (false
 * when nothing listens any more).
 *
 * A client that comes back on the same connection before the `Retry-After` it was just given there
 * did read it (HTTP/1.1 answers one request at a time) and ignored it. Its request is held until
 * that time (at most `earlyRetryHoldMs`, spread by up to half again), then judged like any other:
 * admitted if there is room by then, refused otherwise. Well-behaved clients never wait; a client
 * hammering in a loop gets one answer per `Retry-After` per connection instead of thousands a
 * second, which is what kept the event loop, and /health with it, busy under a crowd
 * (docs/bench.md). This is nginx's `limit_req ... delay`, applied only past a refusal. It holds the
 * request, not the connection's reading: behind a trusted proxy, the connection carries other
 * clients' requests only after this one is answered, and those are judged by their own addresses.
 */
export const makeGatekeeper = (
  settings: GatekeeperSettings,
  health?: () => HealthAnswer,
  gate?: Pick<Gate, "full" | "retryAfterS">,
  pass: (req: IncomingMessage, res: ServerResponse) => boolean = () => false
) => {
  const buckets = {
    costly: makeBuckets({ burst: settings.rateCostlyBurst, perMinute: settings.rateCostlyPerMinute }),
    cheap: makeBuckets({ burst: settings.rateCheapBurst, perMinute: settings.rateCheapPerMinute })
  }
  const meter = makeLagMeter()
  /** Per connection, the last refusal's client and the time it was told to come back. */
  const told = new WeakMap<object, { readonly client: string; readonly until: number }>()
  const held = new Set<() => void>()

  const judge = (kind: "cheap" | "costly", client: string): Refusal | undefined => {
    const wait = buckets[kind].take(client, Date.now())
    if (wait > 0)
      return {
        status: 429,
        error: `too many requests from your address; retry in ${wait} s`,
        retryAfter: wait
      }
    if (
      kind === "costly" &&
      (meter.lag() > settings.admissionMaxLagMs || meter.busy() * 100 > settings.admissionMaxBusyPercent)
    )
      return { status: 503, error: "the service is at capacity; retry in a few seconds", retryAfter: 1 }
    if (kind === "costly" && gate?.full() === true)
      return {
        status: 503,
        error: "the service is at capacity; retry in a few seconds",
        retryAfter: gate.retryAfterS
      }
    return undefined
  }

  /** Judge now: true when refused (and answered), false when admitted. */
  const decide = (req: IncomingMessage, res: ServerResponse, kind: "cheap" | "costly", client: string) => {
    const refusal = judge(kind, client)
    if (refusal === undefined) return false
    told.set(req.socket, { client, until: performance.now() + refusal.retryAfter * 1000 })
    refuse(res, refusal)
    return true
  }

  /**
   * Held requests whose time has come, judged a few per millisecond: a crowd refused at once comes
   * back at once, and judging it in one timer callback was one long turn (docs/bench.md). A timer,
   * not `setImmediate`: with immediates pending the loop never waits for I/O, so it would read as
   * fully busy to the meter for as long as a crowd is released, and the crowd would be shed again.
   */
  const due: Array<() => void> = []
  let draining = false
  const drain = () => {
    for (const release of due.splice(0, RELEASE_PER_TURN)) release()
    draining = due.length > 0
    if (draining) setTimeout(drain, 1)
  }

  const hold = (
    req: IncomingMessage,
    res: ServerResponse,
    kind: "cheap" | "costly",
    client: string,
    ms: number
  ) => {
    const forget = () => {
      clearTimeout(timer)
      held.delete(release)
      res.off("close", forget)
    }
    const release = () => {
      if (!held.has(release)) return // the client hung up meanwhile
      forget()
      // Admitted, but the app has stopped listening (the server is closing): say so, so that the
      // connection ends instead of waiting for an answer that will not come.
      if (!decide(req, res, kind, client) && !pass(req, res))
        refuse(res, {
          status: 503,
          error: "the service is shutting down; retry in a few seconds",
          retryAfter: 5
        })
    }
    const timer = setTimeout(() => {
      due.push(release)
      if (!draining) {
        draining = true
        setTimeout(drain, 1)
      }
    }, ms)
    held.add(release)
    // A client that hangs up is forgotten at once, unanswered.
    res.once("close", forget)
  }

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    const kind = routeClass(req.method ?? "GET", q < 0 ? url : url.slice(0, q))
    if (kind === "exempt") {
      // GET /health from the background-refreshed state (Health.ts): no database, no Effect runtime,
      // nothing queued ahead of it but node's own parsing.
      if (health === undefined || (req.method !== "GET" && req.method !== "HEAD")) return false
      writeHealth(req, res, health())
      return true
    }
    const forwarded = req.headers["x-forwarded-for"]
    const client = resolveClient(
      req.socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
      settings.trustedProxies
    )
    const last = told.get(req.socket)
    const early = last !== undefined && last.client === client ? last.until - performance.now() : 0
    if (early > 0 && settings.earlyRetryHoldMs > 0 && held.size < MAX_HELD) {
      // Up to half as long again, at random: a crowd refused in one burst would otherwise come back
      // in one burst, be judged while the loop is busy with itself, and be shed again, in step.
      hold(req, res, kind, client, Math.min(early, settings.earlyRetryHoldMs) * (1 + Math.random() / 2))
      return true
    }
    return decide(req, res, kind, client)
  }
  /** Close: held requests are judged at once, so none outlives the server. */
  const stop = () => {
    meter.stop()
    for (const release of [...held]) release()
  }
  return { handle, stop, held: () => held.size } as const
}
