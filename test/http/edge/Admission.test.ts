/**
 * Load: per-client token buckets on every endpoint, a global gate on costly work with a
 * short queue (503 + Retry-After beyond), /health exempt, and the client behind a trusted proxy.
 */
import { HttpApi, HttpServer } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber } from "effect"
import * as dgram from "node:dgram"
import { EventEmitter } from "node:events"
import * as http from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Api } from "../../../src/Api.ts"
import { classOf, costingOf } from "../../../src/api/Cost.ts"
import { makeGate, routeClass } from "../../../src/http/edge/Admission.ts"
import { makeRefusals } from "../../../src/http/edge/Limits.ts"
import { makeLimiter } from "../../../src/http/edge/RateLimit.ts"
import { makeGatekeeper } from "../../../src/http/edge/Gatekeeper.ts"
import { trustedCidrs } from "../../../src/http/edge/ClientAddress.ts"
import { call, testApp } from "../harness.ts"

describe("route classes", () => {
  it("health is exempt, generators and docs cheap, everything that reaches out costly", () => {
    expect(routeClass("GET", "/api/health")).toBe("exempt")
    expect(routeClass("POST", "/api/email/spf/generate")).toBe("cheap")
    // previewing the generated record over a domain scans it
    expect(routeClass("POST", "/api/email/spf/generate", "domain=example.com")).toBe("costly")
    expect(routeClass("POST", "/api/dns/tlsa/generate", "x=1&domain=example.com")).toBe("costly")
    expect(routeClass("GET", "/api/openapi.json")).toBe("cheap")
    expect(routeClass("GET", "/api/email/check")).toBe("costly")
    expect(routeClass("GET", "/api/report/snapshot/0b6f4c1e-1f1a-4c55-9d44-5b0d8f6f3a2e")).toBe("cheap")
    expect(routeClass("GET", "/api/report/snapshot")).toBe("costly") // the legacy GET creates one
    expect(routeClass("POST", "/api/report/snapshot")).toBe("costly")
    expect(routeClass("POST", "/api/csp/scan")).toBe("costly")
  })

  it("every route of the contract is classed as its endpoint declares, a path parameter filled in", () => {
    const seen: Array<string> = []
    HttpApi.reflect(Api, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, mergedAnnotations }) => {
        const path = endpoint.path.replace(/:\w+/g, "x1")
        const costing = costingOf(mergedAnnotations)
        for (const query of ["", "domain=example.com"]) {
          expect(
            routeClass(endpoint.method, path, query),
            `${endpoint.method} ${endpoint.path}?${query}`
          ).toBe(classOf(costing, query))
          seen.push(classOf(costing, query))
        }
      }
    })
    expect(new Set(seen)).toEqual(new Set(["exempt", "cheap", "costly"]))
  })

  it("an endpoint that declares nothing is costly; off the contract, GET and POST are costly, other methods cheap", () => {
    expect(costingOf(Context.empty())).toBe("costly")
    expect(classOf({ cheapUnless: "domain" }, "")).toBe("cheap")
    expect(classOf({ cheapUnless: "domain" }, "x=1&domain=example.com")).toBe("costly")
    expect(routeClass("GET", "/api/no-such-route")).toBe("costly")
    expect(routeClass("POST", "/api/no-such-route")).toBe("costly")
    expect(routeClass("PUT", "/api/scan")).toBe("cheap")
    expect(routeClass("HEAD", "/api/health/")).toBe("exempt")
  })
})

describe("the gate", () => {
  it.effect("runs at most `concurrency`, queues `queue`, turns the rest away at once", () =>
    Effect.gen(function* () {
      const gate = makeGate({ concurrency: 2, queue: 1, queueMs: 60_000 })
      const release = yield* Deferred.make<void>()
      const work = gate.admit(Deferred.await(release).pipe(Effect.as("done")), Effect.succeed("busy"))
      const fibers = yield* Effect.forEach([1, 2, 3], () => Effect.fork(work))
      yield* Effect.yieldNow()
      expect(gate.stats()).toEqual({ active: 2, waiting: 1 })
      expect(yield* work).toBe("busy")
      yield* Deferred.succeed(release, undefined)
      expect(yield* Effect.forEach(fibers, Fiber.join)).toEqual(["done", "done", "done"])
      expect(gate.stats()).toEqual({ active: 0, waiting: 0 })
    })
  )

  it.live("a queued request that waits too long is turned away, and interrupted waiters leak nothing", () =>
    Effect.gen(function* () {
      const gate = makeGate({ concurrency: 1, queue: 5, queueMs: 50 })
      const hold = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(gate.admit(Deferred.await(hold), Effect.void))
      yield* Effect.yieldNow()
      expect(yield* gate.admit(Effect.succeed("ran"), Effect.succeed("busy"))).toBe("busy")
      const waiter = yield* Effect.fork(gate.admit(Effect.never, Effect.void))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(waiter)
      yield* Deferred.succeed(hold, undefined)
      yield* Fiber.join(holder)
      expect(gate.stats()).toEqual({ active: 0, waiting: 0 })
    })
  )
})

describe("the gatekeeper", () => {
  const settings = {
    trustedProxies: [],
    rateCostlyBurst: 100,
    rateCostlyPerMinute: 100,
    rateCheapBurst: 100,
    rateCheapPerMinute: 100,
    admissionMaxCpuPercent: 100,
    earlyRetryHoldMs: 2_000
  }
  const exchange = (
    method: string,
    url: string,
    socket: object = { remoteAddress: "192.0.2.1" },
    headers: Record<string, string> = {}
  ) => {
    const sent: { status?: number; headers?: Record<string, string>; body?: string } = {}
    const set: Record<string, string> = {}
    const res = new EventEmitter() as EventEmitter & { writableEnded: boolean }
    res.writableEnded = false
    Object.assign(res, {
      setHeader: (name: string, value: string) => (set[name.toLowerCase()] = value),
      writeHead: (status: number, headers: Record<string, string>) =>
        Object.assign(sent, { status, headers: { ...set, ...headers } }),
      end: (body?: string) => {
        res.writableEnded = true
        Object.assign(sent, { body })
      }
    })
    const req = { method, url, headers, socket } as unknown as IncomingMessage
    return { req, res: res as unknown as ServerResponse & EventEmitter, sent, set }
  }
  /** A gate stub: `permits` permits, `active` of them taken, full when `full()` says so. */
  const gateOf = (state: { active: number; full: boolean }, permits = 8) => ({
    full: () => state.full,
    retryAfterS: 2,
    permits,
    queue: 64,
    stats: () => ({ active: state.active, waiting: state.full ? 64 : 0 })
  })
  const limitsWith = (lines: Array<Record<string, unknown>>) => ({
    costly: makeLimiter({ name: "costly", burst: 100, perMinute: 100 }),
    cheap: makeLimiter({ name: "cheap", burst: 100, perMinute: 100 }),
    refusals: makeRefusals((message, meters) => lines.push({ message, ...meters }))
  })

  it("refuses costly work with 503 at once while the gate is full, before the Effect runtime", () => {
    const gate = { active: 8, full: true }
    const lines: Array<Record<string, unknown>> = []
    const limits = limitsWith(lines)
    const keeper = makeGatekeeper(settings, undefined, gateOf(gate), undefined, limits)
    const refused = exchange("GET", "/api/email/check?domain=perfect.com")
    expect(keeper.handle(refused.req, refused.res)).toBe(true)
    expect(refused.sent).toMatchObject({ status: 503, headers: { "retry-after": "2" } })
    // counted and logged, with the meters that decided it
    expect(limits.refusals.counts()).toEqual({ "shed-queue-full": 1 })
    expect(lines).toEqual([
      expect.objectContaining({ status: 503, reason: "shed-queue-full", active: 8, waiting: 64 })
    ])
    expect(JSON.parse(refused.sent.body!)).toEqual({ error: expect.any(String) })
    const cheap = exchange("POST", "/api/email/spf/generate")
    expect(keeper.handle(cheap.req, cheap.res)).toBe(false)
    gate.full = false
    const passed = exchange("GET", "/api/email/check?domain=perfect.com")
    expect(keeper.handle(passed.req, passed.res)).toBe(false)
    keeper.stop()
  })

  it("never sheds while a permit is free, however busy the process; with every permit taken, its own CPU decides", () => {
    const gate = { active: 7, full: false }
    const limits = limitsWith([])
    const keeper = makeGatekeeper(
      { ...settings, admissionMaxCpuPercent: 10 },
      undefined,
      gateOf(gate),
      undefined,
      limits
    )
    // This process's own CPU time: spin for 300 ms (a neighbour's load would not count).
    const until = performance.now() + 300
    while (performance.now() < until);
    const lone = exchange("GET", "/api/email/check?domain=perfect.com")
    expect(keeper.handle(lone.req, lone.res)).toBe(false)
    gate.active = 8
    const refused = exchange("GET", "/api/email/check?domain=perfect.com", { remoteAddress: "192.0.2.9" })
    expect(keeper.handle(refused.req, refused.res)).toBe(true)
    expect(refused.sent).toMatchObject({ status: 503, headers: { "retry-after": "1" } })
    expect(limits.refusals.counts()).toEqual({ "shed-cpu": 1 })
    keeper.stop()
  })

  it("counts what it admitted until answered: more in flight than the gate holds is shed", () => {
    // The gate itself sees nothing (the requests wait in the router and the Effect scheduler).
    const keeper = makeGatekeeper(settings, undefined, { ...gateOf({ active: 0, full: false }, 2), queue: 1 })
    const admitted = [0, 1, 2].map(() => exchange("GET", "/api/email/check?domain=perfect.com"))
    for (const a of admitted) expect(keeper.handle(a.req, a.res)).toBe(false)
    expect(keeper.inFlight()).toBe(3)
    const shed = exchange("GET", "/api/email/check?domain=perfect.com")
    expect(keeper.handle(shed.req, shed.res)).toBe(true)
    expect(shed.sent.status).toBe(503)
    // cheap work is never shed
    const cheap = exchange("POST", "/api/email/spf/generate")
    expect(keeper.handle(cheap.req, cheap.res)).toBe(false)
    admitted[0]!.res.emit("close")
    const next = exchange("GET", "/api/email/check?domain=perfect.com")
    expect(keeper.handle(next.req, next.res)).toBe(false)
    keeper.stop()
  })

  it("a crowd answered one at a time still counts: many clients served just now, with the thread saturated", async () => {
    const keeper = makeGatekeeper(
      { ...settings, admissionMaxCpuPercent: 10 },
      undefined,
      gateOf({ active: 0, full: false })
    )
    const until = performance.now() + 300
    while (performance.now() < until);
    // one client, request after request, each answered before the next (a turn of the loop each,
    // as over a connection): never shed
    for (let i = 0; i < 20; i++) {
      const one = exchange("GET", "/api/email/check?domain=perfect.com")
      expect(keeper.handle(one.req, one.res)).toBe(false)
      one.res.emit("close")
      await new Promise(setImmediate)
    }
    // eight clients more, each answered at once: the ninth client's request is shed
    for (let i = 2; i < 10; i++) {
      const other = exchange("GET", "/api/email/check?domain=perfect.com", { remoteAddress: `192.0.2.${i}` })
      keeper.handle(other.req, other.res)
      other.res.emit("close")
    }
    const ninth = exchange("GET", "/api/email/check?domain=perfect.com", { remoteAddress: "192.0.2.99" })
    expect(keeper.handle(ninth.req, ninth.res)).toBe(true)
    expect(ninth.sent.status).toBe(503)
    keeper.stop()
  })

  it("sets RateLimit and RateLimit-Policy on every answer it judges, admitted or refused", () => {
    const keeper = makeGatekeeper({ ...settings, rateCostlyBurst: 2, rateCostlyPerMinute: 60 })
    const first = exchange("GET", "/api/dns/lookup?domain=perfect.com")
    expect(keeper.handle(first.req, first.res)).toBe(false)
    expect(first.set).toEqual({ "ratelimit-policy": '"costly";q=2;w=2', ratelimit: '"costly";r=1;t=1' })
    const second = exchange("GET", "/api/dns/lookup?domain=perfect.com")
    keeper.handle(second.req, second.res)
    const third = exchange("GET", "/api/dns/lookup?domain=perfect.com", { remoteAddress: "192.0.2.1" })
    expect(keeper.handle(third.req, third.res)).toBe(true)
    expect(third.sent).toMatchObject({
      status: 429,
      headers: { "retry-after": "1", ratelimit: '"costly";r=0;t=1', "ratelimit-policy": '"costly";q=2;w=2' }
    })
    const cheap = exchange("POST", "/api/email/spf/generate")
    keeper.handle(cheap.req, cheap.res)
    expect(cheap.set["ratelimit-policy"]).toBe('"cheap";q=100;w=60')
    keeper.stop()
  })

  it("judges 16 requests of a burst in its turn; the rest wait for later turns, in order, /health never", async () => {
    const passed: Array<unknown> = []
    const keeper = makeGatekeeper(
      settings,
      () => ({ status: 200, body: { status: "healthy", timestamp: "t", uptime: 1, services: {} } }),
      gateOf({ active: 0, full: false }, 100),
      (req) => passed.push(req) > 0
    )
    const burst = Array.from({ length: 40 }, (_, i) =>
      exchange("GET", "/api/dns/lookup?domain=perfect.com", { remoteAddress: `192.0.2.${i + 1}` })
    )
    const taken = burst.map((r) => keeper.handle(r.req, r.res))
    expect(taken.filter((t) => !t)).toHaveLength(16)
    expect(taken.slice(0, 16).every((t) => !t)).toBe(true)
    expect(keeper.held()).toBe(24)
    // /health in the same turn is answered at once
    const health = exchange("GET", "/api/health")
    expect(keeper.handle(health.req, health.res)).toBe(true)
    expect(health.sent.status).toBe(200)
    // a client that hangs up while it waits is dropped unanswered
    burst[39]!.res.emit("close")
    while (keeper.held() > 0) await new Promise((r) => setTimeout(r, 2))
    expect(passed).toEqual(burst.slice(16, 39).map((r) => r.req))
    expect(burst[39]!.sent.status).toBeUndefined()
    keeper.stop()
  })

  it("answers GET /health itself, from the health state, whatever the gate says", () => {
    const body = { status: "healthy", timestamp: "t", uptime: 1, services: {} } as const
    const keeper = makeGatekeeper(settings, () => ({ status: 200, body }), gateOf({ active: 8, full: true }))
    const health = exchange("GET", "/api/health")
    expect(keeper.handle(health.req, health.res)).toBe(true)
    expect(health.sent.status).toBe(200)
    expect(JSON.parse(health.sent.body!)).toEqual(body)
    keeper.stop()
  })
})

describe("a client that comes back before its Retry-After", () => {
  const settings = {
    trustedProxies: [],
    rateCostlyBurst: 1,
    rateCostlyPerMinute: 60,
    rateCheapBurst: 100,
    rateCheapPerMinute: 100,
    admissionMaxCpuPercent: 100,
    earlyRetryHoldMs: 2_000
  }
  const request = (socket: object) => {
    const sent: { status?: number } = {}
    const res = new EventEmitter() as EventEmitter & { writableEnded: boolean }
    res.writableEnded = false
    Object.assign(res, {
      setHeader: () => {},
      writeHead: (status: number) => Object.assign(sent, { status }),
      end: () => void (res.writableEnded = true)
    })
    const req = { method: "GET", url: "/api/dns/lookup?domain=perfect.com", headers: {}, socket }
    return {
      req: req as unknown as IncomingMessage,
      res: res as unknown as ServerResponse & EventEmitter,
      sent
    }
  }

  it("on the connection that was told is held, not answered; another connection is answered at once", () => {
    const passed: Array<unknown> = []
    const keeper = makeGatekeeper(settings, undefined, undefined, (req) => passed.push(req) > 0)
    const socket = { remoteAddress: "192.0.2.1" }
    expect(keeper.handle(request(socket).req, request(socket).res)).toBe(false) // the burst
    const refused = request(socket)
    expect(keeper.handle(refused.req, refused.res)).toBe(true)
    expect(refused.sent.status).toBe(429)
    const early = request(socket)
    expect(keeper.handle(early.req, early.res)).toBe(true)
    expect(early.sent.status).toBeUndefined()
    expect(keeper.held()).toBe(1)
    // The same client on a new connection has not been told yet: answered at once.
    const other = request({ remoteAddress: "192.0.2.1" })
    expect(keeper.handle(other.req, other.res)).toBe(true)
    expect(other.sent.status).toBe(429)
    // Closing judges what is held: still over the bucket, so a 429 now.
    keeper.stop()
    expect(early.sent.status).toBe(429)
    expect(keeper.held()).toBe(0)
    expect(passed).toEqual([])
  })

  it("a held request admitted when nothing listens any more (the server closing) gets 503", () => {
    let full = true
    const keeper = makeGatekeeper({ ...settings, rateCostlyBurst: 100 }, undefined, {
      full: () => full,
      retryAfterS: 2,
      permits: 1,
      queue: 1,
      stats: () => ({ active: 1, waiting: full ? 1 : 0 })
    })
    const socket = { remoteAddress: "192.0.2.4" }
    const refused = request(socket)
    keeper.handle(refused.req, refused.res)
    expect(refused.sent.status).toBe(503)
    const early = request(socket)
    keeper.handle(early.req, early.res)
    expect(early.sent.status).toBeUndefined()
    full = false
    keeper.stop()
    expect(early.sent.status).toBe(503)
  })

  it("a held request whose client hangs up is dropped unanswered", () => {
    const keeper = makeGatekeeper(settings)
    const socket = { remoteAddress: "192.0.2.2" }
    keeper.handle(request(socket).req, request(socket).res)
    keeper.handle(request(socket).req, request(socket).res)
    const early = request(socket)
    keeper.handle(early.req, early.res)
    early.res.emit("close")
    expect(keeper.held()).toBe(0)
    keeper.stop()
    expect(early.sent.status).toBeUndefined()
  })

  it("behind a trusted proxy, the next request on the connection from another client is not held", () => {
    const keeperProxied = makeGatekeeper({ ...settings, trustedProxies: trustedCidrs(["127.0.0.1/32"]) })
    const proxy = { remoteAddress: "127.0.0.1" }
    const from = (client: string) => {
      const r = request(proxy)
      ;(r.req.headers as Record<string, string>)["x-forwarded-for"] = client
      return r
    }
    keeperProxied.handle(from("203.0.113.1").req, from("203.0.113.1").res)
    const told = from("203.0.113.1")
    keeperProxied.handle(told.req, told.res)
    expect(told.sent.status).toBe(429)
    const next = from("203.0.113.2")
    expect(keeperProxied.handle(next.req, next.res)).toBe(false)
    const back = from("203.0.113.1")
    keeperProxied.handle(back.req, back.res)
    expect(back.sent.status).toBeUndefined()
    expect(keeperProxied.held()).toBe(1)
    keeperProxied.stop()
  })
})

describe("early retries over HTTP", () => {
  it.scopedLive("are answered after a client's other connection, which was not told", () =>
    Effect.gen(function* () {
      const app = testApp({
        RATE_COSTLY_BURST: "1",
        RATE_COSTLY_PER_MINUTE: "1",
        EARLY_RETRY_HOLD_MS: "1500"
      })
      yield* Effect.gen(function* () {
        const address = (yield* HttpServer.HttpServer).address
        if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
        const agents = [1, 2].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }))
        yield* Effect.addFinalizer(() => Effect.sync(() => agents.forEach((a) => a.destroy())))
        const get = (agent: http.Agent) =>
          Effect.async<number>((resume) => {
            http
              .get(
                { host: "127.0.0.1", port: address.port, path: "/api/dns/lookup?domain=perfect.com", agent },
                (res) => {
                  res.resume()
                  res.on("end", () => resume(Effect.succeed(res.statusCode ?? 0)))
                }
              )
              .on("error", () => resume(Effect.succeed(-1)))
          })
        yield* get(agents[0]!) // the burst: the answer does not matter (no resolver here)
        expect(yield* get(agents[1]!)).toBe(429) // told on connection 2
        // Back on connection 2 at once: held. Connection 1 was never told: answered at once.
        const order: Array<string> = []
        const held = yield* Effect.fork(
          Effect.tap(get(agents[1]!), () => Effect.sync(() => order.push("held")))
        )
        yield* Effect.sleep("100 millis")
        expect(yield* get(agents[0]!)).toBe(429)
        order.push("other")
        expect(yield* Fiber.join(held)).toBe(429)
        expect(order).toEqual(["other", "held"])
      }).pipe(Effect.provide(app))
    })
  )
})

layer(testApp({ RATE_COSTLY_BURST: "2", RATE_CHEAP_BURST: "3", RATE_COSTLY_PER_MINUTE: "6" }))(
  "per-client limits over HTTP",
  (it) => {
    it.effect(
      "costly routes give 429 with Retry-After beyond the burst; cheap routes and /health go on",
      () =>
        Effect.gen(function* () {
          const statuses = []
          for (let i = 0; i < 3; i++)
            statuses.push((yield* call("GET", "/api/dns/lookup?domain=example.com")).status)
          expect(statuses[2]).toBe(429)
          const limited = yield* call("GET", "/api/email/check?domain=example.com")
          expect(limited.status).toBe(429)
          expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1)
          expect(limited.json).toEqual({ error: expect.stringMatching(/too many requests/), retryAfter: 10 })
          expect(limited.headers["ratelimit"]).toBe('"costly";r=0;t=10')
          // a spoofed X-Forwarded-For buys nothing without TRUSTED_PROXIES
          const spoofed = yield* call("GET", "/api/dns/lookup?domain=example.com", undefined, {
            "x-forwarded-for": "203.0.113.9"
          })
          expect(spoofed.status).toBe(429)
          expect((yield* call("GET", "/api/openapi.json")).status).toBe(200)
          for (let i = 0; i < 20; i++) expect((yield* call("GET", "/api/health")).status).toBe(200)
          // every refusal counted, by reason, where operators look
          const health = yield* call("GET", "/api/health")
          expect(health.json.services.admission.refused).toEqual({ "rate-costly": 3 })
        })
    )
  }
)

layer(testApp({ RATE_COSTLY_BURST: "1", RATE_COSTLY_PER_MINUTE: "1", TRUSTED_PROXIES: "127.0.0.1/32" }))(
  "behind a trusted proxy",
  (it) => {
    it.effect("each forwarded client has its own budget", () =>
      Effect.gen(function* () {
        const from = (ip: string) =>
          Effect.map(
            call("GET", "/api/dns/lookup?domain=example.com", undefined, {
              "x-forwarded-for": `198.51.100.7, ${ip}`
            }),
            (r) => r.status
          )
        expect(yield* from("203.0.113.1")).not.toBe(429)
        expect(yield* from("203.0.113.1")).toBe(429)
        expect(yield* from("203.0.113.2")).not.toBe(429)
      })
    )
  }
)

/** Settings for a resolver that never answers: each lookup stays inside the gate until its timeout. */
const silentResolver = Effect.gen(function* () {
  const silent = dgram.createSocket("udp4")
  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => {
      silent.bind(0, "127.0.0.1", () => resume(Effect.void))
    }),
    () => Effect.sync(() => void silent.close())
  )
  return { DNS_RESOLVERS: `127.0.0.1:${silent.address().port}`, DNS_TIMEOUT_MS: "1500", DNS_RETRIES: "0" }
})

describe("the global gate over HTTP", () => {
  it.scopedLive(
    "beyond concurrency and queue, costly requests get 503 with Retry-After, fast; /health stays up",
    () =>
      Effect.gen(function* () {
        const app = testApp({
          ...(yield* silentResolver),
          ADMISSION_CONCURRENCY: "2",
          ADMISSION_QUEUE: "2",
          ADMISSION_QUEUE_MS: "200"
        })
        yield* Effect.gen(function* () {
          const responses = yield* Effect.forEach(
            Array.from({ length: 10 }, (_, i) => `/api/dns/lookup?domain=d${i}.example.com&type=A`),
            (url) => call("GET", url),
            { concurrency: "unbounded" }
          )
          const busy = responses.filter((r) => r.status === 503)
          expect(busy.length).toBeGreaterThanOrEqual(6)
          for (const r of busy) {
            expect(r.headers["retry-after"]).toBe("1")
            expect(r.json).toEqual({ error: "the service is at capacity; retry in a few seconds" })
          }
          expect((yield* call("GET", "/api/health")).status).toBe(200)
        }).pipe(Effect.provide(app))
      })
  )

  it.scopedLive("a full gate refuses in the gatekeeper, before the request is read or routed", () =>
    Effect.gen(function* () {
      const app = testApp({
        ...(yield* silentResolver),
        ADMISSION_CONCURRENCY: "1",
        ADMISSION_QUEUE: "0"
      })
      yield* Effect.gen(function* () {
        const holder = yield* Effect.fork(call("GET", "/api/dns/lookup?domain=held.example.com&type=A"))
        yield* Effect.sleep("300 millis")
        // Past the gatekeeper this request is a 403 (the edge's body rules run before admission): a
        // 503 means the gatekeeper answered in node's request event, the cheap path (docs/bench.md).
        const refused = yield* call("POST", "/api/csp/scan", undefined, { "sec-fetch-site": "cross-site" })
        expect(refused.status).toBe(503)
        expect(refused.json).toEqual({ error: "the service is at capacity; retry in a few seconds" })
        expect(refused.headers["retry-after"]).toBeDefined()
        yield* Fiber.join(holder)
      }).pipe(Effect.provide(app))
    })
  )
})
