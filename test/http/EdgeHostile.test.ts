/**
 * Issue 12, hostile bodies and requests: each test names a defect seen on the public edge and
 * failed before the fix (deep JSON 500s, chunked resets, empty 431s, form posts accepted, 405 for
 * long path parameters, error bodies echoing whole inputs or schema internals).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"
import { rawRequest, rawSocket } from "./raw.ts"

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
