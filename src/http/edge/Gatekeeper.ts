/**
 * The gatekeeper (DESIGN principle 10): the first look at every request, in node's
 * `request` event, before the router and the Effect runtime, so a flood of refusals costs little
 * more than parsing it. It reads the request target as the router will serve it (RequestTarget.ts:
 * the canonical path is passed on, other spellings redirected), answers `/health`, applies the
 * per-client buckets and the global gate's "full" (Admission.ts), sheds costly work while the event
 * loop lags or is busy, and holds a client's early retries (below).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { EventLoopUtilization } from "node:perf_hooks"
import type { Cidr } from "../../records/IpAddress.ts"
import { type Gate, makeBuckets, routeClass } from "./Admission.ts"
import { resolveClient } from "./ClientAddress.ts"
import { type HealthAnswer, writeHealth } from "./Health.ts"
import { readTarget, type Target, targetAnswer } from "./RequestTarget.ts"

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

const answerTarget = (
  req: IncomingMessage,
  res: ServerResponse,
  target: Exclude<Target, { readonly _tag: "Serve" }>
) => {
  const { status, headers, body } = targetAnswer(req.method ?? "GET", target)
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text)
  })
  res.end(text)
}

/** Held requests at most, whatever the connections: beyond, an early retry is judged at once. */
const MAX_HELD = 10_000
/** Held requests judged per millisecond once their time has come. */
const RELEASE_PER_MS = 16

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
    for (const release of due.splice(0, RELEASE_PER_MS)) release()
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
    // Classify, and later route, the target as the router serves it (RequestTarget.ts).
    const target = readTarget(req.method ?? "GET", req.url ?? "/")
    if (target._tag !== "Serve") {
      answerTarget(req, res, target)
      return true
    }
    req.url = target.url
    if (target.authority !== undefined) req.headers.host = target.authority
    const url = target.url
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
