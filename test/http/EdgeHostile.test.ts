/**
 * Hostile bodies and requests: each test names a defect seen on the public edge and failed before
 * the fix (deep JSON 500s, chunked resets, empty 431s, form posts accepted, 405 for long path
 * parameters, error bodies echoing whole inputs or schema internals, a cross-site GET creating a
 * snapshot, self-contradicting 405s, CONNECT and unknown Expect unanswered, bodies and headers
 * that never finish arriving holding a connection).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"
import { rawRequest, rawSocket, rawSocketOpen } from "./raw.ts"

/** The body of a raw HTTP reply. */
const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4))

/** The longest run of `c` in `text`: how much of an input of `c`s an answer quotes. */
const longestRun = (text: string, c: string) =>
  Math.max(0, ...[...text.matchAll(new RegExp(`${c}+`, "g"))].map((m) => m[0].length))

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

const isBoundedError = (json: unknown, max = 700) =>
  typeof json === "object" &&
  json !== null &&
  typeof (json as { error?: unknown }).error === "string" &&
  (json as { error: string }).error.length <= max

layer(testApp({ MAX_BODY_BYTES: "65536" }))("hostile requests at the edge", (it) => {
  it.effect("deeply nested JSON is a 400 before decoding, wherever it sits", () =>
    Effect.gen(function* () {
      for (const [path, body] of [
        ["/api/csp/scan", `{"url":${nested(3000)}}`],
        ["/api/security-headers/generate", `{"config":{"csp":${nested(3000)}}}`],
        ["/api/scan", `{"domain":${nested(3000)}}`],
        ["/api/email/spf/generate", `{"mechanisms":${"[{".repeat(1500)}${"}]".repeat(1500)}}`]
      ] as const) {
        const r = yield* call("POST", path, body)
        expect([path, r.status]).toEqual([path, 400])
        expect(r.json.error).toMatch(/nested more than 64 levels/)
      }
      // brackets inside strings are not nesting
      const inString = yield* call("POST", "/api/csp/scan", JSON.stringify({ url: "[".repeat(500) }))
      expect(inString.json.error).not.toMatch(/nested/)
    })
  )

  it.effect("JSON endpoints take application/json only: forms, multipart and text are 415", () =>
    Effect.gen(function* () {
      for (const type of [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
        "application/jsonx"
      ]) {
        const r = yield* rawRequest({
          method: "POST",
          path: "/api/csp/scan",
          headers: { "content-type": type },
          chunks: ["url=csp-meta.com"]
        })
        expect([type, r.status]).toEqual([type, 415])
        expect(r.json.error).toMatch(/application\/json/)
      }
      const noType = yield* rawRequest({ method: "POST", path: "/api/scan", chunks: ['{"domain":"x"}'] })
      expect(noType.status).toBe(415)
      const charset = yield* rawRequest({
        method: "POST",
        path: "/api/scan",
        headers: { "content-type": "Application/JSON; charset=utf-8" },
        chunks: ['{"domain":"http:/x"}']
      })
      expect(charset.status).toBe(400)
      expect(charset.json.error).toMatch(/domain must be/)
    })
  )

  it.effect("a browser's cross-site POST is refused before any work", () =>
    Effect.gen(function* () {
      const r = yield* call("POST", "/api/report/snapshot?domain=example.com", undefined, {
        "sec-fetch-site": "cross-site"
      })
      expect(r.status).toBe(403)
      expect(isBoundedError(r.json)).toBe(true)
    })
  )

  it.effect("the deprecated GET (and HEAD) that creates a snapshot is refused cross-site like the POST", () =>
    Effect.gen(function* () {
      for (const method of ["GET", "HEAD"]) {
        const r = yield* rawRequest({
          method,
          path: "/api/report/snapshot?domain=example.com",
          headers: { "sec-fetch-site": "cross-site" }
        })
        expect([method, r.status]).toEqual([method, 403])
        if (method === "GET") expect(isBoundedError(r.json)).toBe(true)
      }
      // a stored snapshot is still readable from anywhere (an image, a link)
      const read = yield* call("GET", "/api/report/snapshot/nope", undefined, {
        "sec-fetch-site": "cross-site"
      })
      expect(read.status).toBe(404)
      const sameSite = yield* call("GET", "/api/report/snapshot?domain=example.com", undefined, {
        "sec-fetch-site": "same-origin"
      })
      expect(sameSite.status).toBe(201)
      expect(sameSite.headers["deprecation"]).toMatch(/^@\d+$/)
      expect(sameSite.headers["link"]).toMatch(/rel="successor-version"/)
    })
  )

  it.effect("405 names the methods that are allowed, and never the request's own", () =>
    Effect.gen(function* () {
      const wrong = yield* call("PUT", "/api/report/snapshot")
      expect(wrong.status).toBe(405)
      expect(wrong.headers["allow"]).toBe("POST, GET, HEAD")
      expect(wrong.json).toEqual({ error: "PUT is not allowed on /api/report/snapshot; use POST, GET, HEAD" })
      for (const path of ["/api/badge/%E0%A4%A", "/api/badge/%zz", "/api/pdf/%FF"]) {
        const r = yield* call("GET", path)
        expect([path, r.status]).toEqual([path, 400])
        expect(r.json.error).toMatch(/percent-encoded/)
      }
    })
  )

  it.effect("an answer quotes at most 80 characters of any input, ending in an ellipsis", () =>
    Effect.gen(function* () {
      const long = "q".repeat(600)
      for (const [method, path, body] of [
        ["GET", `/api/${long}`, undefined],
        ["DELETE", `/api/badge/${long}`, undefined],
        ["GET", `/api/dns/lookup?domain=${long}.com`, undefined],
        ["GET", `/api/dns/lookup?domain=example.com&type=${long}`, undefined],
        ["GET", `/api/badge/${long}`, undefined],
        ["GET", `/api/report/snapshot/${long}`, undefined],
        ["GET", `/api/report/everything?domain=example.com&format=${long}`, undefined],
        ["POST", "/api/scan", { domain: long }],
        ["POST", "/api/csp/scan", { url: `https://${long}` }],
        ["POST", "/api/security-headers/generate", { preset: long }],
        ["POST", "/api/ai/explain", { issue_type: long }],
        ["POST", "/api/email/spf/generate", { mechanisms: [{ type: long, value: long }] }]
      ] as const) {
        const r = yield* call(method, path, body)
        const where = `${method} ${path.slice(0, 40)} ${JSON.stringify(body ?? "").slice(0, 40)}`
        expect([where, r.status >= 400, typeof r.json?.error]).toEqual([where, true, "string"])
        expect([where, longestRun(r.json.error, "q") <= 80]).toEqual([where, true])
        if (longestRun(r.json.error, "q") > 40) expect(r.json.error).toContain("…")
      }
    })
  )

  it.effect("CONNECT and an unknown Expect get a JSON answer, not a closed connection or an empty 417", () =>
    Effect.gen(function* () {
      const connect = yield* rawSocket("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
      expect(connect).toMatch(/^HTTP\/1\.1 405 /)
      expect(connect).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/i)
      expect(bodyOf(connect).error).toMatch(/CONNECT is not allowed/)
      const expectation = yield* rawSocket("GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: 999-bogus\r\n\r\n")
      expect(expectation).toMatch(/^HTTP\/1\.1 417 /)
      expect(bodyOf(expectation)).toEqual({
        error: "Expect: '999-bogus' is not supported; only 100-continue is"
      })
    })
  )

  it.effect("a chunked body over MAX_BODY_BYTES is a 413 {error}, not a reset", () =>
    Effect.gen(function* () {
      const chunk = Buffer.alloc(16_384, "a")
      const r = yield* rawRequest({
        method: "POST",
        path: "/api/scan",
        headers: { "content-type": "application/json" },
        chunks: ['{"domain":"', ...Array.from({ length: 8 }, () => chunk), '"}']
      })
      expect(r.status).toBe(413)
      expect(r.json).toEqual({ error: "request body too large; the limit is 65536 bytes" })
      // and the server is fine afterwards
      expect((yield* call("GET", "/api/health")).status).toBe(200)
    })
  )

  it.effect("oversized request lines and malformed requests get a JSON {error}", () =>
    Effect.gen(function* () {
      const long = yield* rawSocket(
        `GET /api/dns/lookup?domain=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`
      )
      expect(long).toMatch(/^HTTP\/1\.1 431 /)
      expect(long).toMatch(/content-type: application\/json/i)
      expect(JSON.parse(long.slice(long.indexOf("\r\n\r\n") + 4))).toEqual({
        error: "request line and headers too large"
      })
      const junk = yield* rawSocket("NOT HTTP AT ALL\r\n\r\n")
      expect(junk).toMatch(/^HTTP\/1\.1 400 /)
      expect(JSON.parse(junk.slice(junk.indexOf("\r\n\r\n") + 4)).error).toBe("malformed HTTP request")
    })
  )

  it.effect("path parameters of any length answer 400 or 404, never 405", () =>
    Effect.gen(function* () {
      const label = "a".repeat(57)
      const valid118 = `${label}.${label}.com`
      expect(valid118.length).toBe(119)
      const badge = yield* call("GET", `/api/badge/${valid118}`)
      expect(badge.status).not.toBe(405)
      expect(badge.status).not.toBe(400)
      for (const path of [
        `/api/badge/${"a".repeat(300)}`,
        `/api/pdf/${"b".repeat(5000)}.com`,
        `/api/report/snapshot/${"x".repeat(200)}`
      ]) {
        const r = yield* call("GET", path)
        expect([path.slice(0, 30), r.status]).toEqual([path.slice(0, 30), 400])
        expect(isBoundedError(r.json)).toBe(true)
      }
    })
  )

  it.effect("error messages are bounded and never internal schema text", () =>
    Effect.gen(function* () {
      const huge = yield* call("POST", "/api/email/spf/generate", {
        mechanisms: Array.from({ length: 1_200 }, () => ({ type: "ip4", value: "x".repeat(10) }))
      })
      expect(huge.status).toBe(400)
      expect(huge.text.length).toBeLessThan(700)
      for (const body of ["[]", '"a string"', "42", "null"]) {
        const r = yield* call("POST", "/api/csp/scan", body)
        expect([body, r.status]).toEqual([body, 400])
        expect(r.json.error).not.toMatch(/readonly|maxLength|Expected \{/)
      }
      const longKey = yield* call("POST", "/api/csp/scan", { url: 5, ["k".repeat(10_000)]: 1 })
      expect(isBoundedError(longKey.json)).toBe(true)
    })
  )
})

layer(testApp({ REQUEST_TIMEOUT_MS: "1000" }))("requests that never finish arriving", (it) => {
  it.effect("a body that stops arriving gets a JSON 408, and the connection is closed", () =>
    Effect.gen(function* () {
      const reply = yield* rawSocketOpen(
        [
          "POST /api/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
          '{"domain":'
        ],
        50,
        15_000
      )
      expect(reply).toMatch(/^HTTP\/1\.1 408 /)
      expect(bodyOf(reply)).toEqual({ error: "the request took too long to arrive" })
    })
  )

  it.effect(
    "a kept-alive connection idle for longer than REQUEST_TIMEOUT_MS between requests is still served",
    () =>
      Effect.gen(function* () {
        const health = "GET /api/health HTTP/1.1\r\nHost: x\r\n"
        // the second request 3 s after the first answer: idle time is not a slow request
        const reply = yield* rawSocketOpen(
          [`${health}\r\n`, `${health}Connection: close\r\n\r\n`],
          3_000,
          15_000
        )
        expect(reply.match(/HTTP\/1\.1 200 /g)?.length).toBe(2)
      })
  )

  it.effect("headers that trickle in for longer than REQUEST_TIMEOUT_MS get a JSON 408", () =>
    Effect.gen(function* () {
      // one header line every 200 ms, for 6 s if nothing stops it
      const trickle = Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: a\r\n`)
      const reply = yield* rawSocketOpen(["GET /api/health HTTP/1.1\r\nHost: x\r\n", ...trickle], 200, 15_000)
      expect(reply).toMatch(/^HTTP\/1\.1 408 /)
      expect(bodyOf(reply).error).toMatch(/took too long to arrive/)
    })
  )
})
