/**
 * Fast-check over every endpoint of the contract, with random
 * parameters and bodies (strings, unicode, huge and deeply nested values, wrong content types and
 * methods), against the running app. Zero 500s; every non-2xx body is a JSON `{ error }` of bounded
 * size. Over 10,000 requests; the NOWHERE config makes network work fail at once, and the CSP scan
 * (a crawl per request) gets a small share.
 */
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { Api } from "../../src/Api.ts"
import { fakeDnsServer, reply } from "../net/FakeDnsServer.ts"
import { testApp } from "./harness.ts"
import { rawRequest } from "./raw.ts"

interface Operation {
  readonly method: string
  readonly path: string
  readonly params: ReadonlyArray<string>
  readonly bodyFields: ReadonlyArray<string>
}

const operations: ReadonlyArray<Operation> = Object.entries(OpenApi.fromApi(Api).paths).flatMap(
  ([path, item]) =>
    (["get", "post"] as const).flatMap((method) => {
      const op = (item as Record<string, any>)[method]
      if (!op) return []
      const schema = op.requestBody?.content?.["application/json"]?.schema
      return [
        {
          method: method.toUpperCase(),
          path,
          params: (op.parameters ?? []).map((p: { name: string }) => p.name),
          bodyFields: Object.keys(schema?.properties ?? {})
        }
      ]
    })
)

const deep = fc
  .integer({ min: 60, max: 5_000 })
  .chain((n) =>
    fc.constantFrom("[", '{"a":').map((open) => open.repeat(n) + "1" + (open === "[" ? "]" : "}").repeat(n))
  )

const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    "",
    "%",
    "%zz",
    "..",
    "example.com",
    "perfect.com",
    "xn--",
    "a".repeat(300),
    "x.".repeat(200)
  ),
  fc.integer().map(String)
)

const jsonValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3_000 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 5_000, maxLength: 20_000 }) }
)

/** A body for `op`: its own fields with random values, or something else entirely. */
const body = (op: Operation) =>
  fc.oneof(
    fc
      .dictionary(fc.constantFrom(...op.bodyFields, "x"), jsonValue, { maxKeys: 4 })
      .map((record) => JSON.stringify(record)),
    deep.map((d) => `{"${op.bodyFields[0] ?? "x"}":${d}}`),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    scalar
  )

const request = fc.constantFrom(...operations).chain((op) =>
  fc.record({
    op: fc.constant(op),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constant(op.method) },
      fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH")
    ),
    query: fc.dictionary(fc.constantFrom(...op.params, "x", "format", "type"), scalar, { maxKeys: 3 }),
    pathValue: scalar,
    body: body(op),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant("application/json") },
      fc.constantFrom(
        "application/x-www-form-urlencoded",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-8",
        ""
      )
    )
  })
)

const isCrawl = (path: string) => path === "/api/csp/scan"

/**
 * DNS that answers every question NXDOMAIN at once: no lookup fails, so a 500 can only be a defect
 * (with NOWHERE, the spec's "upstream resolver problem" 500 would be the right answer).
 */
const nxdomainWorld = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const dns = yield* fakeDnsServer((q) => reply(q, [], { rcode: "NXDOMAIN" } as object))
    const at = `127.0.0.1:${dns.port}`
    return yield* effect.pipe(
      Effect.provide(
        testApp({ MAX_BODY_BYTES: "131072", DNS_RESOLVERS: at, PROPAGATION_RESOLVERS: `${at}|Fake|Test|ZZ` })
      )
    )
  })

describe("fuzzing every endpoint", () => {
  it.scopedLive(
    "no 500, and every error is a bounded JSON {error}",
    () =>
      nxdomainWorld(
        Effect.gen(function* () {
          const samples = fc.sample(request, { numRuns: 10_500, seed: 12 })
          let crawls = 0
          let sent = 0
          const failures: Array<string> = []
          yield* Effect.forEach(
            samples,
            (s) =>
              Effect.gen(function* () {
                if (isCrawl(s.op.path) && s.method === "POST" && ++crawls > 40) return
                const path = s.op.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(s.pathValue) || "x")
                const qs = new URLSearchParams(s.query).toString()
                const withBody = s.method !== "GET"
                const r = yield* Effect.either(
                  rawRequest({
                    method: s.method,
                    path: `${path}${qs ? `?${qs}` : ""}`,
                    headers: withBody && s.contentType !== "" ? { "content-type": s.contentType } : {},
                    chunks: withBody ? [s.body] : []
                  })
                )
                sent++
                if (r._tag === "Left")
                  return void failures.push(`${r.left.message} ${s.method} ${path.slice(0, 60)}`)
                const res = r.right
                const bad =
                  res.status >= 500 && res.status !== 502 && res.status !== 503
                    ? "5xx"
                    : res.status >= 400 &&
                        !(
                          typeof res.json?.error === "string" &&
                          res.json.error.length <= 700 &&
                          res.text.length <= 1_000
                        )
                      ? "body"
                      : undefined
                if (bad)
                  failures.push(
                    `${bad} ${s.method} ${path.slice(0, 60)} -> ${res.status} ${res.text.slice(0, 120)}`
                  )
              }),
            { concurrency: 16, discard: true }
          )
          expect(failures.slice(0, 10)).toEqual([])
          expect(sent).toBeGreaterThanOrEqual(10_000)
        })
      ),
    // 10,500 requests: a minute and a half of one core, longer while other test files share it.
    300_000
  )
})
