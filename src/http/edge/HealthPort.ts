/**
 * `HEALTH_PORT`: a second listener that answers only `GET /health` (and `/api/health`), from the
 * same background-refreshed state as the API's (Health.ts), and `GET /metrics` (the Prometheus
 * text, observe/Prometheus.ts): the management port, private to probes and the scraper.
 *
 * Why a listener of its own: node accepts one new connection per event-loop iteration (libuv 1.45+,
 * libuv/libuv#3696), each listener in turn. When a crowd opens hundreds of connections at once, a
 * load balancer's probe on a new connection to the API port waits in the kernel's accept queue
 * behind all of them, seconds under load (docs/bench.md), however cheaply /health is answered once
 * read. Nothing else is served there, so the port can stay private to the load balancer or the
 * orchestrator's probes; it listens on loopback unless HEALTH_HOST names another address.
 *
 * Why a thread of its own: on the main thread a probe also waits for the turn of the event loop
 * under way, and a crowd's burst makes turns of a fifth of a second and more (docs/bench.md). The
 * listener runs in a worker thread with its own event loop; every `HEALTH_PUBLISH_MS` the main
 * thread hands it the answer of the moment, which it serves as it is (its `timestamp` the time
 * of the probe). A main thread that has handed nothing over for as long as a database check may
 * be late (Health.ts's `staleAfterMs`) is wedged: the probe gets 503 rather than an old "healthy".
 * `/metrics` is the main thread's to answer: the thread passes each scrape on and waits for it.
 */
import { Worker } from "node:worker_threads"
import { Effect, Layer, Runtime } from "effect"
import { AppConfig } from "../../Config.ts"
import { MetricsEndpoint } from "../../observe/Prometheus.ts"
import { Health, type HealthAnswer, staleAfterMs } from "./Health.ts"
import { Traffic } from "./Traffic.ts"

/** What the main thread hands the listener's thread. */
type ToThread =
  | { readonly kind: "answer"; readonly answer: HealthAnswer }
  | {
      readonly kind: "metrics"
      readonly id: number
      readonly status: number
      readonly headers: Headers
      readonly body: string
    }
  | { readonly kind: "close" }

/** What the listener's thread tells the main thread. */
type FromThread =
  | { readonly kind: "listening" }
  | { readonly kind: "failed"; readonly message: string; readonly code?: string }
  | { readonly kind: "metrics"; readonly id: number; readonly method: string }

type Headers = Record<string, string | number | ReadonlyArray<string>>

/**
 * The listener's thread, as the source node runs (`eval`): no bundling, no file to find, and
 * nothing of the app's loaded there. It answers from the last answer it was handed.
 */
export const THREAD = `
const { parentPort, workerData } = require("node:worker_threads")
const { createServer } = require("node:http")
const { host, port, staleMs } = workerData
let latest = undefined
let at = 0
let nextScrape = 0
const scrapes = new Map()
const json = (res, status, body, extra) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...extra })
  res.end(text)
}
const writeHealth = (req, res, answer) => {
  const text = JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...(answer.status === 503 && answer.body.status === "starting" ? { "retry-after": "1" } : {})
  })
  res.end(req.method === "HEAD" ? undefined : text)
}
const health = () => {
  const now = Date.now()
  if (latest === undefined)
    return { status: 503, body: { error: "the service is starting; retry in a few seconds", status: "starting" } }
  if (now - at > staleMs)
    return { status: 503, body: { error: "the service's event loop has not reported for " + (now - at) + " ms" } }
  if (latest.status !== 200) return latest
  return { status: 200, body: { ...latest.body, timestamp: new Date(now).toISOString() } }
}
const server = createServer({ maxHeaderSize: 8192, headersTimeout: 10000 }, (req, res) => {
  const path = (req.url || "/").split("?")[0].replace(/\\/+$/, "")
  if (path === "/metrics") {
    const id = nextScrape++
    scrapes.set(id, res)
    res.once("close", () => scrapes.delete(id))
    parentPort.postMessage({ kind: "metrics", id, method: req.method || "GET" })
  } else if (path !== "/health" && path !== "/api/health")
    json(res, 404, { error: "this port answers GET /health and GET /metrics only" }, {})
  else if (req.method !== "GET" && req.method !== "HEAD") json(res, 405, { error: "use GET" }, { allow: "GET, HEAD" })
  else writeHealth(req, res, health())
})
// A probe sends one short line: anything malformed or slow is closed, not answered.
server.on("clientError", (_error, socket) => socket.destroy())
server.once("error", (e) => parentPort.postMessage({ kind: "failed", message: e.message, code: e.code }))
server.listen(port, host, () => parentPort.postMessage({ kind: "listening" }))
parentPort.on("message", (m) => {
  if (m.kind === "answer") {
    latest = m.answer
    at = Date.now()
  } else if (m.kind === "metrics") {
    const res = scrapes.get(m.id)
    scrapes.delete(m.id)
    if (res !== undefined) {
      res.writeHead(m.status, m.headers)
      res.end(m.body)
    }
  } else if (m.kind === "close") {
    server.close(() => parentPort.close())
    server.closeAllConnections() // probes' keep-alive connections would hold close() open
  }
})
`

/** How long after the listener's thread ended on its own it is started again, doubling to a minute. */
const RESTART_FIRST_MS = 1_000
const RESTART_MAX_MS = 60_000

/**
 * The health and metrics listener on HEALTH_HOST:HEALTH_PORT, in a thread of its own, while the
 * layer lives; nothing when HEALTH_PORT is 0. HEALTH_HOST is loopback unless set: the metrics tell
 * how the service is used, which is the operator's to know, and an orchestrator that probes from
 * outside says so. A thread that ends after it started (it should not) is logged and started
 * again: its probes would fail meanwhile, and an orchestrator would restart a service whose API
 * still answers. `source`: the thread's code, another in tests only.
 */
export const healthPortLayer = (source = THREAD) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const { healthHost: host, healthPort, healthPublishMs, healthRefreshMs } = yield* AppConfig
      if (healthPort === 0) return
      const health = yield* Health
      const { scrape } = yield* MetricsEndpoint
      const traffic = yield* Traffic
      const runFork = Runtime.runFork(yield* Effect.runtime<never>())
      // Draining: the load balancer should stop sending now, before the listener goes away.
      const answer = (): HealthAnswer =>
        traffic.draining() ? { status: 503, body: { error: "shutting down" } } : health.answer()
      let current: Worker | undefined
      let closing = false
      const publish = () => current?.postMessage({ kind: "answer", answer: answer() } satisfies ToThread)

      /** A thread listening, or why it could not; `ended` hears once if it ends after that. */
      const start = (ended: (why: string) => void) =>
        new Promise<Worker>((resolve, reject) => {
          const worker = new Worker(source, {
            eval: true,
            workerData: { host, port: healthPort, staleMs: staleAfterMs(healthRefreshMs) }
          })
          const send = (m: ToThread) => worker.postMessage(m)
          send({ kind: "answer", answer: answer() })
          let listening = false
          const stop = (why: string) => {
            worker.removeAllListeners("error")
            worker.removeAllListeners("exit")
            if (listening) return ended(why)
            void worker.terminate()
            reject(new Error(why))
          }
          worker.on("message", (m: FromThread) => {
            if (m.kind === "metrics")
              return void scrape(m.method).then((answer) => send({ kind: "metrics", id: m.id, ...answer }))
            if (m.kind === "failed") return stop(m.code === undefined ? m.message : `${m.code}: ${m.message}`)
            listening = true
            resolve(worker)
          })
          worker.once("error", (e) => stop(e.message))
          worker.once("exit", (code) => stop(`the health listener's thread ended (exit code ${code})`))
        })

      const ended = (why: string) => {
        current = undefined
        if (closing) return
        runFork(Effect.logError(`${why}: HEALTH_PORT does not answer; starting it again`))
        again(RESTART_FIRST_MS)
      }
      const again = (afterMs: number) =>
        setTimeout(() => {
          if (closing) return
          start(ended).then(
            (worker) => {
              if (closing) return void worker.postMessage({ kind: "close" } satisfies ToThread)
              current = worker
              runFork(Effect.logInfo(`health and metrics on http://${host}:${healthPort} again`))
            },
            (e: Error) => {
              runFork(Effect.logError(`the health listener could not start again: ${e.message}`))
              again(Math.min(afterMs * 2, RESTART_MAX_MS))
            }
          )
        }, afterMs).unref()

      // The first start fails the layer (a port in use, an address not this machine's).
      yield* Effect.acquireRelease(
        Effect.tryPromise({ try: () => start(ended), catch: (e) => e as Error }).pipe(
          Effect.map((worker) => {
            current = worker
            const timer = setInterval(publish, Math.max(1, healthPublishMs))
            timer.unref()
            return timer
          })
        ),
        (timer) =>
          Effect.async<void>((resume) => {
            closing = true
            clearInterval(timer)
            const worker = current
            // A thread already gone (its threadId is -1 then) has nothing left to close.
            if (worker === undefined || worker.threadId === -1) return resume(Effect.void)
            worker.removeAllListeners("exit")
            worker.once("exit", () => resume(Effect.void))
            worker.postMessage({ kind: "close" } satisfies ToThread)
          })
      )
      yield* Effect.logInfo(`health and metrics on http://${host}:${healthPort}/health and /metrics`)
    })
  ).pipe(Layer.provide([Traffic.Default, MetricsEndpoint.Default]))

/** The listener with its own thread's code. */
export const HealthPortLive = healthPortLayer()
