/**
 * POST /debug-email at the HTTP edge: the size cap (413), unreadable input (400), the per-client
 * rate limit (429 + Retry-After), DNS failures as temperror, and no log line carrying the message.
 * The authentication results themselves are tested against the world (test/world/debugEmail.test.ts).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { afterAll, beforeAll, vi } from "vitest"
import { call, testApp } from "./harness.ts"

const MARKER = "secret-marker-7f3a9c"
const message = (body: string) =>
  [
    "Received: from mx.perfect.com (mx.perfect.com [127.25.0.1]) by mail.unsigned.net; Mon, 23 Nov 2026 20:00:01 +0000",
    `From: ${MARKER} <alice@perfect.com>`,
    "To: bob@unsigned.net",
    `Subject: ${MARKER}`,
    "Date: Mon, 23 Nov 2026 20:00:00 +0000",
    "Message-ID: <1@perfect.com>",
    "",
    body
  ].join("\r\n")

const post = (raw: unknown) =>
  Effect.map(call("POST", "/api/debug-email", raw === undefined ? {} : { raw_email: raw }), (r) => ({
    status: r.status,
    body: r.json,
    headers: r.headers
  }))

/** Everything the process writes while these tests run (console and the raw streams). */
const written: Array<string> = []
beforeAll(() => {
  const keep = (...args: Array<unknown>) =>
    void written.push(
      args.map((a) => (typeof a === "string" ? a : (JSON.stringify(a) ?? String(a)))).join(" ")
    )
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const)
    vi.spyOn(console, method).mockImplementation(keep)
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream)
    vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: Array<never>) => {
      written.push(String(chunk))
      return original(chunk as string, ...rest)
    }) as typeof stream.write)
  }
})
afterAll(() => vi.restoreAllMocks())

/** The app's logger, at every level, writing into `written` too. */
const capturing = Layer.mergeAll(
  Logger.add(Logger.make(({ message, cause }) => void written.push(JSON.stringify(message), String(cause)))),
  Logger.minimumLogLevel(LogLevel.All)
)

// DNS goes nowhere (the harness default): every lookup fails at once.
layer(testApp({ DEBUG_EMAIL_MAX_BYTES: "4096", LOG_LEVEL: "All" }).pipe(Layer.provide(capturing)))(
  "POST /debug-email at the edge",
  (it) => {
    it.effect("a lookup that fails is a temporary error, never a missing record", () =>
      Effect.gen(function* () {
        const r = yield* post(message("Hello"))
        expect(r.status).toBe(200)
        expect(r.body.spf.status).toBe("temperror")
        expect(r.body.dmarc.status).toBe("temperror")
        expect(r.body.spamScore.rules.map((x: { name: string }) => x.name)).not.toContain("DMARC_MISSING")
        expect(r.body.spamScore.rules.map((x: { name: string }) => x.name)).not.toContain("SPF_NONE")
      })
    )

    it.effect("over DEBUG_EMAIL_MAX_BYTES: 413 with {error}", () =>
      Effect.gen(function* () {
        const r = yield* post(message("x".repeat(5000)))
        expect(r.status).toBe(413)
        expect(r.body).toEqual({ error: expect.stringContaining("the limit is 4096 bytes") })
      })
    )

    it.effect("bytes, not characters, are counted", () =>
      Effect.gen(function* () {
        const r = yield* post(message("é".repeat(2000)))
        expect(r.status).toBe(413)
      })
    )

    it.effect("empty, missing or header-less input: 400 with {error}", () =>
      Effect.gen(function* () {
        for (const raw of ["", undefined, 42, "just some text without any header"]) {
          const r = yield* post(raw)
          expect(r.status).toBe(400)
          expect(typeof r.body.error).toBe("string")
        }
      })
    )

    it.effect("nothing of the message reaches the logs, and errors do not echo it", () =>
      Effect.gen(function* () {
        yield* post(message(`${MARKER} body`))
        const tooLarge = yield* post(message(`${MARKER} ${"x".repeat(5000)}`))
        expect(tooLarge.body.error).not.toContain(MARKER)
        expect(written.join("\n")).not.toContain(MARKER)
      })
    )
  }
)

layer(testApp({ RATE_COSTLY_BURST: "2", RATE_COSTLY_PER_MINUTE: "1" }))(
  "POST /debug-email rate limit",
  (it) => {
    it.effect("a client over its costly-route budget gets 429 with Retry-After", () =>
      Effect.gen(function* () {
        const statuses: Array<number> = []
        let retryAfter: string | undefined
        for (let i = 0; i < 3; i++) {
          const r = yield* post(message("Hello"))
          statuses.push(r.status)
          if (r.status === 429) retryAfter = r.headers["retry-after"]
        }
        expect(statuses).toEqual([200, 200, 429])
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
      })
    )
  }
)

// The setting alone decides (the body as a whole stays capped by MAX_BODY_BYTES): a request schema
// cap of its own answered 400 "maxLength" for a message the operator had allowed.
layer(testApp({ DEBUG_EMAIL_MAX_BYTES: "1500000", MAX_BODY_BYTES: "2000000" }))(
  "POST /debug-email with a raised DEBUG_EMAIL_MAX_BYTES",
  (it) => {
    it.effect("a message above 1,000,000 characters but within the setting is analysed", () =>
      Effect.gen(function* () {
        const r = yield* post(message("x".repeat(1_100_000)))
        expect(r.status).toBe(200)
        expect(r.body.spamScore).toBeDefined()
      })
    )
  }
)
