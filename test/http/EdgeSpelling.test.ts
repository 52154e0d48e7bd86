/**
 * Hostile spellings of a costly route (upper case, doubled slashes, HEAD, absolute form) get the
 * answers the canonical spelling gets: the same per-client bucket, the same global gate. A client
 * that follows the redirect to the canonical path is judged there; no spelling does work unjudged.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import * as dgram from "node:dgram"
import { testApp } from "./harness.ts"
import { rawRequest, type RawResponse } from "./raw.ts"

const QUERY = "?domain=perfect.com"

/** Method and request target of each spelling of GET /api/scan/quick. */
const SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ["GET", `/api/scan/quick${QUERY}`],
  ["GET", `/API/scan/quick${QUERY}`],
  ["GET", `//api/scan/quick${QUERY}`],
  ["GET", `/Api/Scan/Quick${QUERY}`],
  ["GET", `/api/scan/./quick/${QUERY}`],
  ["GET", `/api/scan/%71uick${QUERY}`],
  ["HEAD", `/api/scan/quick${QUERY}`],
  ["GET", `http://audit.example/api/scan/quick${QUERY}`],
  ["GET", `HTTP://audit.example//API/scan/quick${QUERY}`]
]

/** One request, and the canonical one when it is redirected there (as clients follow a 301). */
const follow = (method: string, path: string, headers: Record<string, string>) =>
  Effect.gen(function* () {
    const first = yield* rawRequest({ method, path, headers })
    if (first.status !== 301 && first.status !== 308) return { first, last: first }
    expect(first.headers.location).toMatch(/^\/api\/scan\/quick\?domain=perfect\.com$/)
    return { first, last: yield* rawRequest({ method, path: first.headers.location!, headers }) }
  })

const statuses = (responses: ReadonlyArray<RawResponse>) => {
  const counts: Record<number, number> = {}
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1
  return counts
}

/** A DNS "server" that never answers, so scans hold their gate permit until the DNS timeout. */
const silentResolver = Effect.acquireRelease(
  Effect.async<dgram.Socket>((resume) => {
    const socket = dgram.createSocket("udp4")
    socket.bind(0, "127.0.0.1", () => resume(Effect.succeed(socket)))
  }),
  (socket) => Effect.sync(() => socket.close())
).pipe(
  Effect.map((socket) => ({
    DNS_RESOLVERS: `127.0.0.1:${socket.address().port}`,
    DNS_TIMEOUT_MS: "5000",
    DNS_RETRIES: "0"
  }))
)

describe("every spelling of a costly route is judged as the route", () => {
  it.scopedLive(
    "45 sequential requests per spelling: 30 x 200 and 15 x 429 for each, as for /api/",
    () =>
      Effect.gen(function* () {
        const app = testApp({
          RATE_COSTLY_BURST: "30",
          // no refill during the run: the answers depend on the count, not on the machine's speed
          RATE_COSTLY_PER_MINUTE: "0",
          EARLY_RETRY_HOLD_MS: "0",
          // each spelling is its own client, behind the loopback "proxy"
          TRUSTED_PROXIES: "127.0.0.1,::1"
        })
        yield* Effect.gen(function* () {
          for (const [i, [method, path]] of SPELLINGS.entries()) {
            const answers: Array<RawResponse> = []
            for (let n = 0; n < 45; n++)
              answers.push((yield* follow(method, path, { "x-forwarded-for": `198.51.100.${i + 1}` })).last)
            expect([method, path, statuses(answers)]).toEqual([method, path, { 200: 30, 429: 15 }])
          }
        }).pipe(Effect.provide(app))
      }),
    120_000
  )

  it.scopedLive(
    "with the gate full, every spelling ends in 503",
    () =>
      Effect.gen(function* () {
        const app = testApp({ ...(yield* silentResolver), ADMISSION_CONCURRENCY: "1", ADMISSION_QUEUE: "0" })
        yield* Effect.gen(function* () {
          const holder = yield* Effect.fork(
            rawRequest({ method: "GET", path: "/api/dns/lookup?domain=held.example.com&type=A" })
          )
          yield* Effect.sleep("300 millis")
          for (const [method, path] of SPELLINGS) {
            const { last } = yield* follow(method, path, {})
            expect([method, path, last.status]).toEqual([method, path, 503])
          }
          yield* Fiber.join(holder)
        }).pipe(Effect.provide(app))
      }),
    60_000
  )
})
