/**
 * The HTTP edge: whatever happens inside, the client gets the spec's `{ "error": string }` body with
 * the right status (SPEC.md "Errors"). Schema-decode failures become 400 naming the parameter,
 * unknown routes 404 (405 with `Allow` when only the method is wrong), oversized bodies 413,
 * defects 500 with the details only in the log, and every 429 carries `Retry-After`.
 */
import {
  HttpApi,
  HttpApp,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { Api } from "../Api.ts"

interface Route {
  readonly method: string
  readonly pattern: RegExp
}

/** Every (method, path) of the contract, for telling "wrong method" from "no such path". */
const routes: ReadonlyArray<Route> = (() => {
  const out: Array<Route> = []
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      const pattern = endpoint.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")
      out.push({ method: endpoint.method, pattern: new RegExp(`^${pattern}/?$`) })
    }
  })
  return out
})()

const json = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

const describePath = (path: ReadonlyArray<PropertyKey>) =>
  path.map((key) => (typeof key === "number" ? `[${key}]` : String(key))).join(".")

interface DecodeIssue {
  readonly path?: ReadonlyArray<PropertyKey>
  readonly message?: string
}

/** Turn the builder's HttpApiDecodeError body into one sentence a person can act on. */
export const decodeMessage = (body: { issues?: ReadonlyArray<DecodeIssue>; message?: string }): string => {
  const issues = body.issues ?? []
  if (issues.length === 0) return `invalid request: ${body.message ?? "it does not match the API"}`
  const byPath = new Map<string, Array<string>>()
  for (const { path = [], message = "is invalid" } of issues) {
    const where = describePath(path)
    byPath.set(where, [...(byPath.get(where) ?? []), message])
  }
  return [...byPath]
    .slice(0, 5)
    .map(([where, messages]) => {
      const first = messages[0]!
      if (where === "") return first === "is missing" ? "a request body is required" : first
      if (first === "is missing") return `'${where}' is required`
      // A literal union reports one "Expected X, actual Y" per member: say it once.
      const expected = messages.map((m) => /^Expected (.+), actual (.+)$/s.exec(m))
      if (expected.length > 1 && expected.every((m) => m !== null))
        return `'${where}' must be one of ${expected
          .map((m) => m![1])
          .filter((choice) => choice !== "undefined")
          .join(", ")}; got ${expected[0]![2]}`
      return first.startsWith("domain must") ? first : `'${where}': ${first}`
    })
    .join("; ")
}

const GENERIC: Record<number, string> = {
  400: "invalid request",
  404: "not found",
  413: "request body too large",
  429: "too many requests; retry later",
  500: "internal error; retry after a few seconds",
  503: "a dependency is temporarily unavailable; retry later"
}

/** Rewrite an error response so its body is `{ error }` (keeping documented extras). */
const normalise = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 400) return response
  let body: Record<string, unknown> | undefined
  if (response.body._tag === "Uint8Array") {
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(response.body.body))
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>
    } catch {
      body = undefined
    }
  }
  if (body?._tag === "HttpApiDecodeError") return json(400, { error: decodeMessage(body) })
  if (body !== undefined && typeof body.error === "string") {
    const { _tag, ...rest } = body
    const retryAfter = rest.retryAfter
    const headers: Record<string, string> =
      response.status === 429 && typeof retryAfter === "number"
        ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) }
        : {}
    return json(response.status, rest, { ...response.headers, ...headers })
  }
  const error = GENERIC[response.status] ?? `request failed with status ${response.status}`
  return json(response.status, { error }, response.status === 429 ? { "Retry-After": "60" } : {})
}

const fromCause = (maxBodyBytes: number) => (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    // The builder turns some request errors into defects, so look at the squashed cause.
    const error: unknown = Cause.squash(cause)
    {
      if (HttpServerError.isServerError(error) && error._tag === "RouteNotFound") {
        const path = new URL(request.url, "http://x").pathname
        const allowed = routes.filter((route) => route.pattern.test(path)).map((route) => route.method)
        if (allowed.length > 0)
          return json(
            405,
            { error: `${request.method} is not allowed on ${path}; use ${allowed.join(" or ")}` },
            { Allow: allowed.join(", ") }
          )
        return json(404, {
          error: `no endpoint ${request.method} ${path}; the API is described at /api/docs`
        })
      }
      if (HttpServerError.isServerError(error) && error._tag === "RequestError") {
        if (String(error.cause).includes("maxBytes exceeded"))
          return json(413, { error: `request body too large; the limit is ${maxBodyBytes} bytes` })
        return json(400, { error: "request body must be valid JSON matching the endpoint's schema" })
      }
    }
    if (Cause.isInterruptedOnly(cause))
      return json(503, { error: "the request was interrupted; retry later" })
    yield* Effect.logError("unhandled failure", cause)
    return json(500, { error: GENERIC[500]! })
  })

/**
 * Wrap the whole app (API, OpenAPI and docs routes) with the edge rules. A declared Content-Length
 * over the limit is refused before reading; the stream limit is the backstop for chunked bodies
 * (the platform then drops the connection, as it cannot answer mid-upload).
 */
export const edge =
  (maxBodyBytes: number) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Number(request.headers["content-length"] ?? 0) > maxBodyBytes
        ? Effect.succeed(json(413, { error: `request body too large; the limit is ${maxBodyBytes} bytes` }))
        : app.pipe(
            HttpIncomingMessage.withMaxBodySize(Option.some(maxBodyBytes)),
            Effect.catchAllCause(fromCause(maxBodyBytes)),
            Effect.map(normalise)
          )
    )
