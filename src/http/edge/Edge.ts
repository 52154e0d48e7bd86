/**
 * The HTTP edge: whatever happens inside, the client gets the spec's `{ "error": string }` body with
 * the right status (SPEC.md "Errors"). Schema-decode failures become 400 naming the parameter,
 * unknown routes 404 (405 with `Allow` when only the method is wrong), oversized bodies 413,
 * defects 500 with the details only in the log, and every 429 and 503 carries `Retry-After`.
 *
 * Before the app runs, the public-edge rules of DESIGN principle 10: the request target read as the
 * router serves it (RequestTarget.ts; the gatekeeper has done it already on the node server), the
 * refusal of cross-site requests that create something, the global gate on costly work
 * (Admission.ts; the per-client buckets run earlier, in Gatekeeper.ts, in the node server's request
 * event) and the body rules for JSON endpoints (BodyRules.ts), judged after the access guard of an
 * endpoint that has one (AuthFirst.ts). Error texts are cut to a bounded
 * length and quote at most 80 characters of any input.
 */
import {
  Headers,
  HttpApp,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import type { Settings } from "../../Config.ts"
import { type Gate, makeGate, routeClass } from "./Admission.ts"
import type { AuthFirst } from "./AuthFirst.ts"
import {
  bareMediaType,
  hasBody,
  isJsonContentType,
  nestedDeeperThan,
  readBody,
  REPORT_BODY_TYPES,
  withBodyBytes,
  withBodyText
} from "./BodyRules.ts"
import { allowedMethods, quote, readTarget, targetAnswer } from "./RequestTarget.ts"
import { SlicedScheduler } from "./Slices.ts"
import { notFoundPage } from "../../pages/ErrorPages.ts"
import { isPagePath } from "../pages/PagePaths.ts"
import { errorResponse, langOf } from "../pages/Respond.ts"

const json = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/** At most `max` characters of `text`, marked when cut: no error body grows with its input. */
export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const MAX_ERROR_CHARS = 600

/**
 * Every run of characters without a space cut to 80: messages from deeper down (a URL the CSP
 * scanner refused, a record's value) may quote their input whole, and no answer quotes more than
 * 80 characters of it.
 */
export const boundRuns = (text: string) => text.replace(/\S{81,}/g, (run) => `${run.slice(0, 79)}…`)

const describePath = (path: ReadonlyArray<PropertyKey>) =>
  cut(path.map((key) => (typeof key === "number" ? `[${key}]` : cut(String(key), 40))).join("."), 80)

/**
 * One schema message in words a caller can use: the schema's own rendering of a struct
 * (`Expected { readonly url: maxLength(2048); ... }`) is internal text, and `actual` may be the
 * whole input, so it is cut short.
 */
const tidy = (message: string): string => {
  if (/^Expected \{|\breadonly\b/.test(message))
    return "must be a JSON object with the fields documented at /api/docs"
  const m = /^Expected (.+?), actual (.*)$/s.exec(message)
  if (m) return `Expected ${cut(m[1]!, 200)}, actual ${cut(m[2]!, 40)}`
  return cut(message, 200)
}

interface DecodeIssue {
  readonly path?: ReadonlyArray<PropertyKey>
  readonly message?: string
}

/** Turn the builder's HttpApiDecodeError body into one sentence a person can act on. */
export const decodeMessage = (body: { issues?: ReadonlyArray<DecodeIssue>; message?: string }): string => {
  const issues = body.issues ?? []
  if (issues.length === 0) return `invalid request: ${body.message ?? "it does not match the API"}`
  const byPath = new Map<string, Array<string>>()
  for (const { path = [], message = "is invalid" } of issues.slice(0, 50)) {
    const where = describePath(path)
    byPath.set(where, [...(byPath.get(where) ?? []), tidy(message)])
  }
  const text = [...byPath]
    .slice(0, 5)
    .map(([where, messages]) => {
      const first = messages[0]!
      if (where === "")
        return first === "is missing"
          ? "a request body is required"
          : first.startsWith("must be a JSON object")
            ? `the request body ${first}`
            : first
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
  return cut(boundRuns(text), MAX_ERROR_CHARS)
}

/** Seconds to wait after a 429 or 503 that names no wait of its own. */
const GENERIC_RETRY_AFTER = "60"

const GENERIC: Record<number, string> = {
  400: "invalid request",
  403: "forbidden",
  404: "not found",
  405: "method not allowed",
  408: "the request took too long to arrive",
  413: "request body too large",
  415: "unsupported content type; send application/json",
  429: "too many requests; retry later",
  500: "internal error; retry after a few seconds",
  503: "a dependency is temporarily unavailable; retry later"
}

/** A page's own error page (HTML) is kept as it is: only API answers are JSON. */
const isHtml = (response: HttpServerResponse.HttpServerResponse) =>
  (
    response.headers["content-type"] ??
    (response.body as { contentType?: string }).contentType ??
    ""
  ).startsWith("text/html")

/** Rewrite an error response so its body is `{ error }` (keeping documented extras). */
const normalise = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 400 || isHtml(response)) return response
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
    rest.error = cut(boundRuns(body.error), MAX_ERROR_CHARS)
    const retryAfter = rest.retryAfter
    const headers: Record<string, string> =
      (response.status === 429 || response.status === 503) && typeof retryAfter === "number"
        ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) }
        : // a store that cannot answer says no more than 503: the generic wait (RFC 9110 §10.2.3)
          response.status === 503 && response.headers["retry-after"] === undefined
          ? { "Retry-After": GENERIC_RETRY_AFTER }
          : // every 401 asks for a bearer token: an API key or the MONITORS_TOKEN (RFC 6750 §3)
            response.status === 401
            ? { "WWW-Authenticate": 'Bearer realm="domain-audit"' }
            : {}
    return json(response.status, rest, { ...response.headers, ...headers })
  }
  const error = GENERIC[response.status] ?? `request failed with status ${response.status}`
  return json(
    response.status,
    { error },
    response.status === 429 || response.status === 503 ? { "Retry-After": GENERIC_RETRY_AFTER } : {}
  )
}

const pathOf = (url: string) => {
  try {
    return new URL(url, "http://x").pathname
  } catch {
    return "/"
  }
}

const fromCause = (maxBodyBytes: number) => (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    // The builder turns some request errors into defects, so look at the squashed cause.
    const error: unknown = Cause.squash(cause)
    {
      if (HttpServerError.isServerError(error) && error._tag === "RouteNotFound") {
        const path = pathOf(request.url)
        const allowed = allowedMethods(path)
        // A path served with this very method that the router still did not match is no endpoint.
        if (allowed.length > 0 && !allowed.includes(request.method))
          return json(
            405,
            {
              error: `${quote(request.method, 20)} is not allowed on ${quote(path)}; use ${allowed.join(", ")}`
            },
            { Allow: allowed.join(", ") }
          )
        // A browser asking for a page that is not there gets a page; code gets the JSON answer.
        if (isPagePath(path) && (request.headers["accept"] ?? "").includes("text/html"))
          return errorResponse(notFoundPage(langOf(request), path))
        return json(404, {
          error: `no endpoint ${quote(request.method, 20)} ${quote(path)}; the API is described at /api/docs`
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

/** Whether a request creates something: every POST, and the deprecated GET /report/snapshot. */
const createsState = (method: string, path: string) =>
  method === "POST" || ((method === "GET" || method === "HEAD") && path === "/api/report/snapshot")

const tooLarge = (maxBodyBytes: number) =>
  json(413, { error: `request body too large; the limit is ${maxBodyBytes} bytes` })

/** The settings the edge reads (a slice of AppConfig, so tests can pass literals). */
export type EdgeSettings = Pick<
  Settings,
  | "maxBodyBytes"
  | "maxJsonDepth"
  | "admissionConcurrency"
  | "admissionQueue"
  | "admissionQueueMs"
  | "costlySliceMs"
> &
  Partial<Pick<Settings, "reportsMaxBytes">>

/**
 * `text/xml` as `application/xml` (RFC 7303 9.2: the same type, kept for compatibility), parameters
 * kept: the router reads a `text/*` body as UTF-8 text, which loses the bytes of a report in another
 * declared encoding and is not the bytes the report endpoints take.
 */
const asApplicationXml = (
  request: HttpServerRequest.HttpServerRequest
): HttpServerRequest.HttpServerRequest => {
  const type = request.headers["content-type"]
  if (type === undefined || bareMediaType(type) !== "text/xml") return request
  const headers = { ...request.headers, "content-type": type.replace(/^\s*text\/xml/i, "application/xml") }
  return Object.create(request, { headers: { value: headers } }) as HttpServerRequest.HttpServerRequest
}

/**
 * Wrap the whole app (API, OpenAPI and docs routes) with the edge rules. Each call makes its own
 * buckets and gate, so build it once per server.
 */
export const edge = (
  settings: EdgeSettings,
  gate: Gate = makeGate({
    concurrency: settings.admissionConcurrency,
    queue: settings.admissionQueue,
    queueMs: settings.admissionQueueMs
  }),
  authFirst?: AuthFirst
) => {
  const { maxBodyBytes } = settings
  /**
   * Costly work (and all it forks) runs in slices of `COSTLY_SLICE_MS` (Slices.ts), from its first
   * operation: admitted in node's `request` event, it starts in the next slice, so a crowd's
   * admitted requests never run in the turn that read them. Under load a burst of scan work
   * otherwise kept sockets, timers and /health waiting (docs/bench.md has the figures).
   */
  const costlyScheduler = new SlicedScheduler(settings.costlySliceMs)
  const busy = Effect.sync(() =>
    json(
      503,
      { error: "the service is at capacity; retry in a few seconds" },
      { "Retry-After": String(Math.max(1, Math.ceil(settings.admissionQueueMs / 1000))) }
    )
  )

  /** A report endpoint's body: one of its media types, as bytes, under REPORTS_MAX_BYTES. */
  const reportBody = (request: HttpServerRequest.HttpServerRequest, accepted: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const type = request.headers["content-type"]
      const limit = settings.reportsMaxBytes ?? maxBodyBytes
      if (!accepted.includes(bareMediaType(type)))
        return json(415, {
          error: `Content-Type must be one of ${accepted.join(", ")}; got ${type === undefined ? "none" : `'${cut(type, 60)}'`}`
        })
      if (Number(request.headers["content-length"] ?? 0) > limit) return tooLarge(limit)
      const body = yield* readBody(request, limit)
      if (body._tag === "TooLarge") return tooLarge(limit)
      if (body._tag === "Aborted") return json(400, { error: "the request body was not received completely" })
      return asApplicationXml(withBodyBytes(request, body.bytes))
    })

  /** Content type, size and depth of a JSON body; the request to pass on, or the refusal. */
  const bodyRules = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const headers = request.headers
      const type = headers["content-type"]
      const reportTypes = REPORT_BODY_TYPES[pathOf(request.url)]
      if (reportTypes !== undefined) return yield* reportBody(request, reportTypes)
      if (type === undefined && !hasBody(headers)) return request
      if (!isJsonContentType(type))
        return json(415, {
          error: `Content-Type must be application/json; got ${type === undefined ? "none" : `'${cut(type, 60)}'`}`
        })
      if (Number(headers["content-length"] ?? 0) > maxBodyBytes) return tooLarge(maxBodyBytes)
      const body = yield* readBody(request, maxBodyBytes)
      if (body._tag === "TooLarge") return tooLarge(maxBodyBytes)
      if (body._tag === "Aborted") return json(400, { error: "the request body was not received completely" })
      if (nestedDeeperThan(body.text, settings.maxJsonDepth))
        return json(400, {
          error: `the JSON body is nested more than ${settings.maxJsonDepth} levels deep; no endpoint needs that`
        })
      return withBodyText(request, body.text)
    })

  return <E, R>(
    app: HttpApp.Default<E, R>
  ): HttpApp.Default<never, R | HttpServerRequest.HttpServerRequest> => {
    const inner = app.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(maxBodyBytes)),
      Effect.catchAllCause(fromCause(maxBodyBytes)),
      Effect.map(normalise)
    )
    return Effect.gen(function* () {
      const received = yield* HttpServerRequest.HttpServerRequest
      // The gatekeeper has done this already on the node server; any other server gets it here.
      const target = readTarget(received.method, received.url)
      if (target._tag !== "Serve") {
        const { status, headers, body } = targetAnswer(received.method, target)
        return json(status, body as Record<string, unknown>, headers)
      }
      const request =
        target.url === received.url && target.authority === undefined
          ? received
          : received.modify({
              url: target.url,
              ...(target.authority === undefined
                ? {}
                : { headers: Headers.set(received.headers, "host", target.authority) })
            })
      const path = pathOf(request.url)
      const query = request.url.indexOf("?")
      const kind = routeClass(request.method, path, query < 0 ? "" : request.url.slice(query + 1))
      if (kind === "exempt")
        return yield* Effect.provideService(inner, HttpServerRequest.HttpServerRequest, request)
      // A browser marks a request another site makes it send (Fetch Metadata); such requests never
      // create anything here: every POST, and the deprecated GET (or HEAD) that creates a snapshot.
      if (request.headers["sec-fetch-site"] === "cross-site" && createsState(request.method, path))
        return json(403, { error: "cross-site requests are refused; call the API from your own code" })
      let admitted = request
      // A page's form is no JSON (a form encoding; most forms' action path says it all, the preview
      // page reads its two fields): only its size is held to the limit.
      if (request.method === "POST" && isPagePath(path)) {
        if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) return tooLarge(maxBodyBytes)
      } else if (request.method === "POST") {
        const checked = yield* bodyRules(request)
        // A guarded endpoint's guard refuses a client before its body does (AuthFirst.ts).
        if (HttpServerResponse.isServerResponse(checked)) {
          const refused = authFirst === undefined ? undefined : yield* authFirst(request, path)
          return refused === undefined ? checked : normalise(refused)
        }
        admitted = checked
      }
      const run = Effect.provideService(inner, HttpServerRequest.HttpServerRequest, admitted)
      return yield* kind === "costly"
        ? gate.admit(Effect.withScheduler(Effect.zipRight(Effect.yieldNow(), run), costlyScheduler), busy)
        : run
    })
  }
}
