import { mkdtempSync } from "node:fs"
import { createSocket } from "node:dgram"
import { request } from "node:http"
import { type AddressInfo, createServer as createNetServer } from "node:net"
import { networkInterfaces, tmpdir } from "node:os"
import { join } from "node:path"
import { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Logger } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { Health } from "../../src/http/edge/Health.ts"
import { HealthPortLive, healthPortLayer, THREAD } from "../../src/http/edge/HealthPort.ts"
import { HealthLive } from "../../src/Layers.ts"
import { testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-health-"))

/** The /health state as a server that has attached its routes leaves it (the listeners below have none). */
const ServedHealth = HealthLive.pipe(Layer.tap((context) => Context.get(context, Health).served))

const health = Effect.gen(function* () {
  const response = yield* HttpClient.get("/api/health")
  return { status: response.status, body: (yield* response.json) as Record<string, any> }
}).pipe(Effect.scoped)

layer(testApp({ HEALTH_REFRESH_MS: "100" }, dataDir), { excludeTestServices: true })("health", (it) => {
  it.effect("is 200 healthy while the database works, 503 {error} within a refresh once it is unusable", () =>
    Effect.gen(function* () {
      const before = yield* health
      expect(before.status).toBe(200)
      expect(before.body.status).toBe("healthy")
      expect(before.body.services.database).toMatchObject({ status: "healthy", journalMode: "wal" })
      // Break the schema from a second connection, as a bad restore or a stray tool would.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DROP TABLE app_meta`
      }).pipe(Effect.provide(SqliteClient.layer({ filename: join(dataDir, "domain-audit.sqlite") })))
      // The check runs in the background every HEALTH_REFRESH_MS: poll (bounded) until it has seen it.
      let after = yield* health
      for (let i = 0; i < 50 && after.status === 200; i++)
        after = yield* Effect.zipRight(
          Effect.promise(() => new Promise((r) => setTimeout(r, 100))),
          health
        )
      expect(after.status).toBe(503)
      expect(after.body).toEqual({ error: expect.stringMatching(/^database unusable: /) })
    })
  )
})

layer(testApp({ HEALTH_REFRESH_MS: "60000" }))("health under load", (it) => {
  it.effect("answers from the last background check: requests do not touch the database", () =>
    Effect.gen(function* () {
      const answers = yield* Effect.forEach([1, 2, 3, 4, 5], () => health)
      for (const a of answers) expect(a.status).toBe(200)
      const checkedAt = answers.map((a) => a.body.services.database.checkedAt)
      expect(checkedAt[0]).toEqual(expect.any(String))
      // One check (at start-up) served every request; each answer still has its own timestamp and age.
      expect(new Set(checkedAt).size).toBe(1)
      expect(answers.every((a) => typeof a.body.services.database.ageMs === "number")).toBe(true)
    })
  )
})

/** A port nothing listens on now (the kernel's pick, released). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo
      s.close(() => resolve(port))
    })
  })

const get = (url: string, method = "GET") =>
  new Promise<{ status: number; body: any; allow: string | undefined }>((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let text = ""
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          body: text === "" ? undefined : JSON.parse(text),
          allow: res.headers.allow
        })
      )
    })
    req.on("error", reject)
    req.end()
  })

/** A GET answered as text: status, content type and body. */
const text = (url: string) =>
  new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    const req = request(url, (res) => {
      let body = ""
      res.on("data", (chunk) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }))
    })
    req.on("error", reject)
    req.end()
  })

/** `listener` (the service's by default) on `port` of loopback, over the health the API serves. */
const onPort = (port: number, listener = HealthPortLive) =>
  listener.pipe(
    Layer.provideMerge(ServedHealth),
    Layer.provide(AppConfig.Default),
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map([
            ["HOST", "127.0.0.1"],
            ["HEALTH_PORT", String(port)],
            ["DNS_RESOLVERS", "127.0.0.1:9"],
            ["DATA_DIR", mkdtempSync(join(tmpdir(), "domain-audit-health-port-"))]
          ])
        )
      )
    )
  )

/** "closed" when nothing answers on `port` of loopback any more. */
const listenerState = (port: number) =>
  Effect.promise(() =>
    get(`http://127.0.0.1:${port}/health`).then(
      () => "open",
      () => "closed"
    )
  )

describe("HEALTH_PORT", () => {
  it.live("answers GET /health alone on a listener of its own, from the same state", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      yield* Effect.gen(function* () {
        const base = `http://127.0.0.1:${port}`
        const ok = yield* Effect.promise(() => get(`${base}/health`))
        expect(ok.status).toBe(200)
        expect(ok.body).toMatchObject({ status: "healthy", services: { database: { journalMode: "wal" } } })
        expect((yield* Effect.promise(() => get(`${base}/api/health?x=1`))).status).toBe(200)
        // the same state as the API's /health: the check behind both is one
        const shared: any = (yield* Health).answer().body
        expect(shared.services.database.checkedAt).toBe(ok.body.services.database.checkedAt)
        const other = yield* Effect.promise(() => get(`${base}/api/scan/quick?domain=perfect.com`))
        expect(other).toMatchObject({
          status: 404,
          body: { error: expect.stringMatching(/GET \/health and GET \/metrics only/) }
        })
        const post = yield* Effect.promise(() => get(`${base}/health`, "POST"))
        expect(post).toMatchObject({ status: 405, allow: "GET, HEAD", body: { error: "use GET" } })
        // HEAD: the headers only
        expect(yield* Effect.promise(() => get(`${base}/health`, "HEAD"))).toMatchObject({
          status: 200,
          body: undefined
        })
        // a scrape, answered by the main thread through the listener's own
        const scraped = yield* Effect.promise(() => text(`${base}/metrics`))
        expect(scraped.status).toBe(200)
        expect(scraped.type).toMatch(/^text\/plain/)
        expect(scraped.body).toMatch(/^# HELP /m)
        expect((yield* Effect.promise(() => get(`${base}/metrics`, "POST"))).status).toBe(405)
      }).pipe(Effect.provide(onPort(port)))
      // closed with its layer
      expect(yield* listenerState(port)).toBe("closed")
    })
  )

  it.live("a thread that ends on its own is logged and started again; the probes are answered again", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      const logged: Array<string> = []
      // the thread's own code, plus a way for this test to end it: a request for /end
      const ending = `${THREAD}\nserver.prependListener("request", (req) => { if (req.url === "/end") process.exit(3) })`
      const listener = onPort(port, healthPortLayer(ending)).pipe(
        Layer.provide(
          Logger.replace(
            Logger.defaultLogger,
            Logger.make(({ message }) => logged.push(String(message)))
          )
        )
      )
      yield* Effect.gen(function* () {
        const base = `http://127.0.0.1:${port}`
        expect((yield* Effect.promise(() => get(`${base}/health`))).status).toBe(200)
        yield* Effect.promise(() => get(`${base}/end`).catch(() => undefined))
        // started again after a second: poll until it answers (vitest's timeout bounds the wait)
        let status = 0
        while (status !== 200) {
          yield* Effect.sleep("200 millis")
          status = yield* Effect.promise(() =>
            get(`${base}/health`).then(
              (r) => r.status,
              () => 0
            )
          )
        }
        expect(logged.join("\n")).toContain("the health listener's thread ended (exit code 3)")
        expect(logged.join("\n")).toContain("again")
      }).pipe(Effect.provide(listener))
      expect(yield* listenerState(port)).toBe("closed")
    })
  )
})

/** An address of this machine that is not loopback, if it has one. */
const outsideAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === "IPv4")?.address

describe("HEALTH_HOST", () => {
  const listening = (env: Record<string, string>) =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      const config = Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map(
            Object.entries({
              HOST: "0.0.0.0",
              HEALTH_PORT: String(port),
              DNS_RESOLVERS: "127.0.0.1:9",
              DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-health-host-")),
              ...env
            })
          )
        )
      )
      const layer = HealthPortLive.pipe(
        Layer.provideMerge(ServedHealth),
        Layer.provide(AppConfig.Default),
        Layer.provide(config)
      )
      const reach = (host: string) =>
        Effect.promise(() =>
          get(`http://${host}:${port}/health`).then(
            () => "reached",
            () => "refused"
          )
        )
      return { layer, reach }
    })

  it.live("keeps the health and metrics listener on loopback unless HEALTH_HOST says otherwise", () =>
    Effect.gen(function* () {
      const outside = outsideAddress()
      const loopback = yield* listening({})
      yield* Effect.gen(function* () {
        expect(yield* loopback.reach("127.0.0.1")).toBe("reached")
        if (outside === undefined) return console.log("skipped: this machine has no address but loopback")
        // HOST is 0.0.0.0: the API listens everywhere, the management port does not
        expect(yield* loopback.reach(outside)).toBe("refused")
      }).pipe(Effect.provide(loopback.layer))
      if (outside === undefined) return
      const everywhere = yield* listening({ HEALTH_HOST: "0.0.0.0" })
      yield* Effect.gen(function* () {
        expect(yield* everywhere.reach(outside)).toBe("reached")
      }).pipe(Effect.provide(everywhere.layer))
    })
  )
})

describe("starting", () => {
  it.live(
    "is 503 starting until the resolver's warm-up question has ended, then 200 saying how it ended",
    () =>
      Effect.gen(function* () {
        // A resolver that never answers: the warm-up ends only at DNS_TIMEOUT_MS.
        const silent = yield* Effect.acquireRelease(
          Effect.async<ReturnType<typeof createSocket>>((resume) => {
            const socket = createSocket("udp4")
            socket.bind(0, "127.0.0.1", () => resume(Effect.succeed(socket)))
          }),
          (socket) => Effect.sync(() => socket.close())
        )
        const env = {
          DNS_RESOLVERS: `127.0.0.1:${silent.address().port}`,
          DNS_TIMEOUT_MS: "2500",
          DNS_RETRIES: "0"
        }
        yield* Effect.gen(function* () {
          const first = yield* health
          expect(first.status).toBe(503)
          expect(first.body).toEqual({ error: expect.stringMatching(/starting/), status: "starting" })
          // bounded: the warm-up ends at the resolver's timeout
          let ready = first
          for (let i = 0; i < 100 && ready.status !== 200; i++)
            ready = yield* Effect.zipRight(Effect.sleep("100 millis"), health)
          expect(ready.status).toBe(200)
          expect(ready.body.status).toBe("healthy")
          expect(ready.body.services.resolver).toMatchObject({ status: "degraded", answered: false })
          // admission control's meters and refusal counts, for operators
          expect(ready.body.services.admission).toMatchObject({
            status: "healthy",
            active: expect.any(Number),
            waiting: 0,
            permits: 8,
            refused: {}
          })
        }).pipe(Effect.provide(testApp(env)))
      }).pipe(Effect.scoped),
    30_000
  )

  it.live("is 503 starting while the routes are not attached, however ready the rest is", () =>
    Effect.gen(function* () {
      const config = Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map([
            ["DNS_RESOLVERS", "127.0.0.1:9"],
            ["DNS_RETRIES", "0"],
            ["DATA_DIR", mkdtempSync(join(tmpdir(), "domain-audit-health-routes-"))]
          ])
        )
      )
      yield* Effect.gen(function* () {
        const state = yield* Health
        // the warm-up ends (port 9 refuses at once); the routes never come
        yield* Effect.sleep("1500 millis")
        expect(state.answer()).toMatchObject({ status: 503, body: { status: "starting" } })
        yield* state.served
        expect(state.answer()).toMatchObject({ status: 200, body: { status: "healthy" } })
      }).pipe(Effect.provide(HealthLive.pipe(Layer.provide(AppConfig.Default), Layer.provide(config))))
    })
  )
})
