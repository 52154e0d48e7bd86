/**
 * The gatekeeper (DESIGN principle 10): the first look at every request, in node's
 * `request` event, before the router and the Effect runtime, so a flood of refusals costs little
 * more than parsing it. It reads the request target as the router will serve it (RequestTarget.ts:
 * the canonical path is passed on, other spellings redirected), answers `/health`, applies the
 * per-client buckets (Limits.ts) and sets their `RateLimit` fields on every answer, refuses costly
 * work when the global gate is full or when the process is saturated by its own work (Admission.ts,
 * Saturation.ts), records every refusal, holds a client's early retries (below), and judges a
 * burst of requests a turn's share at a time, /health first (JUDGED_PER_TURN).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Cidr } from "../../records/IpAddress.ts"
import { type Gate, routeClass } from "./Admission.ts"
import { busyPage, tooManyPage } from "../../pages/ErrorPages.ts"
import { pickLang } from "../../pages/Text.ts"
import { isPagePath } from "../pages/PagePaths.ts"
import { HTML } from "../pages/Respond.ts"
import { PAGE_HEADERS } from "./PageHeaders.ts"
import { forwardingHeader, resolveForwarded } from "./ClientAddress.ts"
import { type HealthAnswer, writeHealth } from "./Health.ts"
import { type LimitSet, makeRefusals, type Meters, type RefusalReason, type Refusals } from "./Limits.ts"
import { makeLimiter, rateLimitHeaders } from "./RateLimit.ts"
import { readTarget, type Target, targetAnswer } from "./RequestTarget.ts"
import { makeCpuMeter } from "./Saturation.ts"

export interface GatekeeperSettings {
  readonly trustedProxies: ReadonlyArray<Cidr>
  readonly rateCostlyBurst: number
  readonly rateCostlyPerMinute: number
  readonly rateCheapBurst: number
  readonly rateCheapPerMinute: number
  readonly admissionMaxCpuPercent: number
  readonly earlyRetryHoldMs: number
}

interface Refusal {
  readonly status: 429 | 503
  readonly reason: RefusalReason
  readonly error: string
  readonly retryAfter: number
  readonly meters: Meters
}

const refuse = (
  req: IncomingMessage,
  res: ServerResponse,
  { status, error, retryAfter }: Pick<Refusal, "status" | "error" | "retryAfter">
) => {
  // A browser refused on a page is shown a page (docs/pages.md); everything else gets the JSON.
  const page = refusalPage(req, status, retryAfter)
  const body = page ?? JSON.stringify(status === 429 ? { error, retryAfter } : { error })
  res.writeHead(status, {
    ...(page === undefined
      ? { "content-type": "application/json" }
      : { ...PAGE_HEADERS, "content-type": HTML }),
    "content-length": Buffer.byteLength(body),
    "retry-after": String(retryAfter)
  })
  res.end(body)
}

/** The HTML of a refusal when `req` is a browser's request for a page, else undefined. */
const refusalPage = (req: IncomingMessage, status: 429 | 503, retryAfter: number): string | undefined => {
  const url = req.url ?? "/"
  const q = url.indexOf("?")
  const path = q < 0 ? url : url.slice(0, q)
  if (!path.startsWith("/") || !isPagePath(path) || !(req.headers.accept ?? "").includes("text/html"))
    return undefined
  const lang = pickLang(
    q < 0 ? undefined : (new URLSearchParams(url.slice(q + 1)).get("lang") ?? undefined),
    req.headers["accept-language"]
  )
  return (status === 429 ? tooManyPage(lang, path, retryAfter) : busyPage(lang, path, retryAfter)).html.markup
}

/** How far back the clients served count towards the shedding decision (Saturation.ts's window). */
const RECENT_MS = 500

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
 * Requests judged in one turn of the event loop; the rest of a burst waits in the release queue.
 * node reads every connection that has data in one turn, and a crowd's first requests, judged and
 * started together, made a turn of most of a second that /health waited behind (docs/bench.md).
 */
const JUDGED_PER_TURN = 16

/**
 * The first look at every request, in node's `request` event: true when it was taken here
 * (answered: 429 over the client's bucket, 503 for costly work when the gate is full, or when every
 * permit is taken and the process's CPU is saturated; or held, see below), false to pass it on now. `pass` hands a held request on later (false
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
  gate?: Pick<Gate, "full" | "retryAfterS" | "permits" | "queue" | "stats">,
  pass: (req: IncomingMessage, res: ServerResponse) => boolean = () => false,
  limits: Pick<LimitSet, "costly" | "cheap"> & {
    readonly refusals: Refusals
    /** A warning line (the service's logger; nothing by default). */
    readonly warn?: (message: string, annotations: Meters) => void
    /** The bucket of a request's usable API key (KeyClients.ts), in place of its address's. */
    readonly keyClientOf?: (authorization: string | undefined) => string | undefined
  } = {
    costly: makeLimiter({
      name: "costly",
      burst: settings.rateCostlyBurst,
      perMinute: settings.rateCostlyPerMinute
    }),
    cheap: makeLimiter({
      name: "cheap",
      burst: settings.rateCheapBurst,
      perMinute: settings.rateCheapPerMinute
    }),
    refusals: makeRefusals(() => {})
  }
) => {
  const cpu = makeCpuMeter()
  /** Costly requests admitted here and not yet answered, wherever they are in the app. */
  let inFlight = 0
  /**
   * The clients whose costly requests were admitted in the last `RECENT_MS`, each with its latest
   * time. A cached answer is often complete before node reads the next request, so a crowd can
   * saturate the process with nothing in flight at any instant (its backlog waits in the kernel's
   * socket buffers); how many clients it served just now is what tells that crowd from one client.
   */
  const recentClients = new Map<string, number>()
  const recentOrder: Array<readonly [number, string]> = []
  const servedRecently = (now: number) => {
    while (recentOrder.length > 0 && recentOrder[0]![0] <= now - RECENT_MS) {
      const [at, client] = recentOrder.shift()!
      if (recentClients.get(client) === at) recentClients.delete(client)
    }
    return recentClients.size
  }
  /** Per connection, the last refusal's client and the time it was told to come back. */
  const told = new WeakMap<object, { readonly client: string; readonly until: number }>()
  const held = new Set<() => void>()
  let unreadableLogged = false

  /**
   * Shed only on this process's own saturation, and never while fewer requests are in flight and
   * fewer clients were served in the last `RECENT_MS` than the gate has permits (a client sending
   * one request at a time is one of each at most). Past that: when more is in flight than the gate
   * holds, or when the main thread had work all of the last half second (Saturation.ts).
   */
  const shed = (): Refusal | undefined => {
    if (gate === undefined) return undefined
    const { active, waiting } = gate.stats()
    // Admitted here and not answered yet, or counted by the gate (which other paths may enter too).
    const load = Math.max(inFlight, active + waiting)
    const clients = servedRecently(performance.now())
    if (load < gate.permits && clients < gate.permits) return undefined
    const meters = {
      inFlight: load,
      recentClients: clients,
      active,
      waiting,
      permits: gate.permits,
      queue: gate.queue,
      demandPercent: Math.round(cpu.demandPercent()),
      cpuPercent: Math.round(cpu.cpuPercent())
    }
    const error = "the service is at capacity; retry in a few seconds"
    // More in flight than the gate can hold (permits and queue): the rest waits in the router and
    // the Effect scheduler, where nothing bounds it, and every event-loop turn grows with it.
    if (gate.full() || load >= gate.permits + gate.queue)
      return { status: 503, reason: "shed-queue-full", error, retryAfter: gate.retryAfterS, meters }
    if (meters.demandPercent > settings.admissionMaxCpuPercent)
      return { status: 503, reason: "shed-cpu", error, retryAfter: 1, meters }
    return undefined
  }

  const judge = (res: ServerResponse, kind: "cheap" | "costly", client: string): Refusal | undefined => {
    const reading = limits[kind].take(client, Date.now())
    for (const [name, value] of Object.entries(rateLimitHeaders([reading]))) res.setHeader(name, value)
    if (reading.retryAfterS > 0)
      return {
        status: 429,
        reason: kind === "costly" ? "rate-costly" : "rate-cheap",
        error: `too many requests from your address; retry in ${reading.retryAfterS} s`,
        retryAfter: reading.retryAfterS,
        meters: { client, limit: reading.policy.name }
      }
    return kind === "costly" ? shed() : undefined
  }

  /** Judge now: true when refused (and answered), false when admitted. */
  const decide = (req: IncomingMessage, res: ServerResponse, kind: "cheap" | "costly", client: string) => {
    const refusal = judge(res, kind, client)
    if (refusal === undefined) {
      if (kind === "costly") {
        inFlight++
        res.once("close", () => inFlight--)
        const now = performance.now()
        recentClients.set(client, now)
        recentOrder.push([now, client])
      }
      return false
    }
    told.set(req.socket, { client, until: performance.now() + refusal.retryAfter * 1000 })
    limits.refusals.record(refusal.status, refusal.reason, refusal.meters)
    refuse(req, res, refusal)
    return true
  }

  /**
   * Held requests whose time has come, judged a few per millisecond: a crowd refused at once comes
   * back at once, and judging it in one timer callback was one long turn (docs/bench.md). A timer,
   * not `setImmediate`: with immediates pending the loop never waits for I/O, so it would read as
   * fully busy for as long as a crowd is released, and /health would wait behind it.
   */
  const due: Array<() => void> = []
  let draining = false
  const drain = () => {
    for (const release of due.splice(0, RELEASE_PER_MS)) release()
    draining = due.length > 0
    if (draining) setTimeout(drain, 1)
  }
  const queue = (release: () => void) => {
    due.push(release)
    if (!draining) {
      draining = true
      setTimeout(drain, 1)
    }
  }

  /** Requests judged on arrival in this turn of the event loop (reset when the turn ends). */
  let judgedThisTurn = 0
  const turnEnded = () => {
    judgedThisTurn = 0
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
      if (!decide(req, res, kind, client) && !pass(req, res)) {
        limits.refusals.record(503, "shutting-down", { client })
        refuse(req, res, {
          status: 503,
          error: "the service is shutting down; retry in a few seconds",
          retryAfter: 5
        })
      }
    }
    const timer = ms > 0 ? setTimeout(() => queue(release), ms) : undefined
    if (ms <= 0) queue(release)
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
    const kind = routeClass(req.method ?? "GET", q < 0 ? url : url.slice(0, q), q < 0 ? "" : url.slice(q + 1))
    if (kind === "exempt") {
      // GET /health from the background-refreshed state (Health.ts): no database, no Effect runtime,
      // nothing queued ahead of it but node's own parsing.
      if (health === undefined || (req.method !== "GET" && req.method !== "HEAD")) return false
      writeHealth(req, res, health())
      return true
    }
    const resolved = resolveForwarded(
      req.socket.remoteAddress,
      forwardingHeader(req.headers),
      settings.trustedProxies
    )
    if (resolved.unparsed !== undefined && !unreadableLogged) {
      // Once: a proxy that writes a form this reads nowhere would otherwise write a line a request.
      unreadableLogged = true
      limits.warn?.(
        "a trusted proxy forwarded a client address that cannot be read; such clients are treated as strangers sharing one rate limit (docs/access.md)",
        { proxy: req.socket.remoteAddress ?? "unknown", forwarded: JSON.stringify(resolved.unparsed) }
      )
    }
    const client = limits.keyClientOf?.(req.headers.authorization) ?? resolved.key
    const last = told.get(req.socket)
    const early = last !== undefined && last.client === client ? last.until - performance.now() : 0
    if (early > 0 && settings.earlyRetryHoldMs > 0 && held.size < MAX_HELD) {
      // Up to half as long again, at random: a crowd refused in one burst would otherwise come back
      // in one burst, be judged while the loop is busy with itself, and be shed again, in step.
      hold(req, res, kind, client, Math.min(early, settings.earlyRetryHoldMs) * (1 + Math.random() / 2))
      return true
    }
    // Past this turn's share, the request waits its turn in the release queue: /health, answered
    // above, is never behind more than a turn's share of a burst.
    if (judgedThisTurn >= JUDGED_PER_TURN && held.size < MAX_HELD) {
      hold(req, res, kind, client, 0)
      return true
    }
    if (judgedThisTurn++ === 0) setImmediate(turnEnded)
    return decide(req, res, kind, client)
  }
  /** Close: held requests are judged at once, so none outlives the server. */
  const stop = () => {
    cpu.stop()
    for (const release of [...held]) release()
  }
  return { handle, stop, held: () => held.size, inFlight: () => inFlight } as const
}
