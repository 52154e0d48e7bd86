/**
 * The HTTP edge through a real server: health, docs, and the error rules of SPEC.md "Errors":
 * every non-2xx is `{ "error": string }`, invalid input is 400, and no input produces a 500.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { OpenApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import fc from "fast-check"
import { Api } from "../../src/Api.ts"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import { call, testApp } from "./harness.ts"
import { runs } from "../support/runs.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-edge-"))

/** A tenant's key: verified domains are a tenant's, so /api/domains judges its input only for one. */
const tenantKey = await Effect.runPromise(
  Effect.flatMap(ApiKeys, (keys) =>
    keys.create({ tenant: "edge", scopes: ["monitors"], validForMs: null })
  ).pipe(
    Effect.map((created) => created.key),
    Effect.provide(
      ApiKeysCommandLive.pipe(
        Layer.provide(AppConfig.Default),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
      )
    )
  )
)

interface Operation {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly domainIn: "query" | "path" | "body" | "none"
  /** False for a query's optional domain (a generator previews over it only when it is given). */
  readonly domainRequired: boolean
}

/** Every operation of the contract and where it takes its domain, read from the OpenAPI document. */
const operations: ReadonlyArray<Operation> = Object.entries(OpenApi.fromApi(Api).paths).flatMap(
  ([path, item]) =>
    (["get", "post"] as const).flatMap((method) => {
      const op = (item as Record<string, any>)[method]
      if (!op) return []
      const param = (op.parameters ?? []).find((p: { name: string }) => p.name === "domain")
      const body = op.requestBody?.content?.["application/json"]?.schema
      const bodyHasDomain = JSON.stringify(body ?? {}).includes('"domain"')
      const domainIn = param ? (param.in as "query" | "path") : bodyHasDomain ? "body" : "none"
      const domainRequired = param ? param.in === "path" || param.required === true : bodyHasDomain
      return [{ method: method.toUpperCase() as "GET" | "POST", path, domainIn, domainRequired }]
    })
)

const GENERATOR_BODIES: Record<string, object> = {
  "/api/email/spf/generate": { mechanisms: [] },
  "/api/email/dmarc/generate": { policy: "none" },
  "/api/dns/tlsa/generate": {
    pem: "-",
    usage: 3,
    selector: 1,
    matching: 1,
    host: "mail.example.com",
    port: 25
  }
}

const withDomain = (op: Operation, domain: string | undefined) => {
  const path = op.path.replace("{domain}", encodeURIComponent(domain ?? ""))
  const query = op.domainIn === "query" && domain !== undefined ? `?domain=${encodeURIComponent(domain)}` : ""
  const extra = op.path.endsWith("/scan/deep")
    ? { type: "web" }
    : op.path.endsWith("/ai/fix")
      ? { issue: "x" }
      : // the generators' bodies, valid, so that the domain of their query is what is judged
        (GENERATOR_BODIES[op.path] ?? {})
  const body =
    op.method === "POST" ? JSON.stringify(domain === undefined ? extra : { ...extra, domain }) : undefined
  const headers: Record<string, string> = op.path.startsWith("/api/domains")
    ? { Authorization: `Bearer ${tenantKey}` }
    : {}
  return call(op.method, path + query, body, headers)
}

const isErrorBody = (json: unknown) =>
  typeof json === "object" && json !== null && typeof (json as { error?: unknown }).error === "string"

layer(testApp({}, dataDir))("the HTTP edge", (it) => {
  it.effect("GET /api/health answers the union shape, checking the database", () =>
    Effect.gen(function* () {
      const { status, json } = yield* call("GET", "/api/health")
      expect(status).toBe(200)
      expect(json.status).toBe("healthy")
      expect(Number.isNaN(Date.parse(json.timestamp))).toBe(false)
      expect(Number.isInteger(json.uptime)).toBe(true)
      expect(json.services.database).toMatchObject({ status: "healthy", journalMode: "wal" })
    })
  )

  it.effect("serves the generated OpenAPI document and the docs page", () =>
    Effect.gen(function* () {
      const openapi = yield* call("GET", "/api/openapi.json")
      expect(openapi.status).toBe(200)
      expect(Object.keys(openapi.json.paths)).toContain("/api/dns/lookup")
      const docs = yield* call("GET", "/api/docs")
      expect(docs.status).toBe(200)
      expect(docs.text).toContain("<html")
    })
  )

  it.effect("every endpoint that takes a domain answers 400 {error} when it is missing or invalid", () =>
    Effect.gen(function* () {
      const takesDomain = operations.filter((op) => op.domainIn !== "none")
      expect(takesDomain.length).toBeGreaterThanOrEqual(24)
      for (const op of takesDomain) {
        for (const domain of op.domainIn === "path"
          ? ["http:/x", "localhost"]
          : op.domainRequired
            ? [undefined, "http:/x", "10.0.0.1"]
            : ["http:/x", "10.0.0.1"]) {
          const { status, json } = yield* withDomain(op, domain)
          expect([op.method, op.path, domain, status]).toEqual([op.method, op.path, domain, 400])
          expect(json).toEqual({ error: expect.stringContaining("domain") })
        }
      }
    })
  )

  it.effect("names the parameter and the reason", () =>
    Effect.gen(function* () {
      const bad = yield* call("GET", "/api/dns/dnssec?domain=http:/x")
      expect(bad.json).toEqual({
        error:
          "domain must be a hostname such as example.com; got 'http:/x' (it contains ':', which host names cannot)"
      })
      const missing = yield* call("GET", "/api/dns/dnssec")
      expect(missing.json).toEqual({ error: "'domain' is required" })
      const type = yield* call("GET", "/api/dns/lookup?domain=example.com&type=BOGUS")
      expect(type.status).toBe(400)
      expect(type.json.error).toContain('"CNAME"')
    })
  )

  it.effect("unknown routes are 404, wrong methods 405 with Allow, all with {error}", () =>
    Effect.gen(function* () {
      const unknown = yield* call("GET", "/api/nope")
      expect(unknown.status).toBe(404)
      expect(unknown.json).toEqual({ error: "no endpoint GET /api/nope; the API is described at /api/docs" })
      const wrong = yield* call("DELETE", "/api/health")
      expect(wrong.status).toBe(405)
      // HEAD is served wherever GET is (the router answers it with the GET)
      expect(wrong.headers["allow"]).toBe("GET, HEAD")
      expect(wrong.json).toEqual({ error: "DELETE is not allowed on /api/health; use GET, HEAD" })
    })
  )

  it.effect("bodies that are not JSON are 400", () =>
    Effect.gen(function* () {
      const broken = yield* call("POST", "/api/scan", "{bad")
      expect(broken.status).toBe(400)
      expect(broken.json).toEqual({ error: "request body must be valid JSON matching the endpoint's schema" })
    })
  )

  it.effect("no fuzzed query string or JSON body produces a 500 or a non-JSON error", () =>
    Effect.gen(function* () {
      const value = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.string({ unit: "binary", maxLength: 20 }),
        fc.constantFrom("", "%", "%zz", "..", "a".repeat(300), "[]", "{}", "null", "-1", "1e999")
      )
      const samples = fc.sample(
        fc.record({
          op: fc.constantFrom(...operations),
          query: fc.dictionary(
            fc.constantFrom("domain", "type", "types", "format", "lang", "selector", "x"),
            value
          ),
          body: fc.oneof(
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
            value
          )
        }),
        { numRuns: runs(250), seed: 20261122 }
      )
      for (const { op, query, body } of samples) {
        const qs = new URLSearchParams(query).toString()
        const path = op.path
          .replace("{domain}", encodeURIComponent(query.domain ?? "x"))
          .replace("{snapshotId}", "x")
        const url = `${path}${qs ? `?${qs}` : ""}`
        const response = yield* call(op.method, url, op.method === "POST" ? body : undefined)
        expect([url, response.status >= 500]).toEqual([url, false])
        if (response.status >= 400 && response.headers["content-type"]?.includes("json"))
          expect([url, isErrorBody(response.json)]).toEqual([url, true])
      }
    })
  )
})

layer(testApp({ MAX_BODY_BYTES: "4096" }))("the body size limit", (it) => {
  it.effect("bodies over MAX_BODY_BYTES are 413 {error}", () =>
    Effect.gen(function* () {
      const huge = yield* call("POST", "/api/scan", JSON.stringify({ domain: "x".repeat(5000) }))
      expect(huge.status).toBe(413)
      expect(huge.json).toEqual({ error: "request body too large; the limit is 4096 bytes" })
      const fine = yield* call("POST", "/api/scan", JSON.stringify({ domain: "x".repeat(3000) }))
      expect(fine.status).toBe(400)
    })
  )
})
