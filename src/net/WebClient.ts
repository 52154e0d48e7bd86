/**
 * The redirect-following client behind the `Web` service: bounded concurrency, each hop's host
 * resolved and vetted again before its exchange, the next address tried only when one is
 * unreachable, and one total budget over every permit wait, hop and body. A hop's address look-up
 * is bounded by the resolver's own timeouts (`DNS_TIMEOUT_MS`, `DNS_RETRIES`), the budget checked
 * after it. Built from settings and an address lookup, so tests drive it without a Resolver or
 * AppConfig.
 */
import { Effect, FiberRef, type MetricLabel } from "effect"
import { Destinations } from "./Destinations.ts"
import { Permits } from "../bounds/Permits.ts"
import { probeAlpn } from "./WebAlpn.ts"
import { attempt, type Deadline, unanswered } from "./WebExchange.ts"
import { parseTarget, vettedAddresses } from "./WebTarget.ts"
import {
  type AddressLookup,
  type Redirect,
  setCookieValues,
  webError,
  WebError,
  type WebRequestOptions,
  type WebResponse,
  type WebSettings
} from "./WebTypes.ts"
import * as M from "../observe/Metrics.ts"

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
const GLOBAL_CONCURRENCY = 64

/** Repeated fields combine with ", " (RFC 9110 §5.3); Set-Cookie cannot (RFC 6265 §3), so it joins with "\n". */
const joinHeaders = (pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of pairs) {
    const key = name.toLowerCase()
    const prev = out[key]
    out[key] = prev === undefined ? value : `${prev}${key === "set-cookie" ? "\n" : ", "}${value}`
  }
  return out
}

/**
 * A span, only while the tracer is on: with it off (the batch's scans), `withSpan` still wraps the
 * fetch in a region, frames on the stack of the fetch's fiber while it waits.
 */
const traced =
  (name: string, attributes: Record<string, string>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (on) =>
      on ? Effect.withSpan(self, name, { attributes }) : self
    )

const RESPONSE = M.labels({ outcome: "response" })
const FAILURES = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
/** A failed fetch's metric labels: its reason, one of WebError's fixed list. */
const fetchFailure = (reason: string) => {
  let tags = FAILURES.get(reason)
  if (tags === undefined) FAILURES.set(reason, (tags = M.labels({ outcome: reason })))
  return tags
}

/** Build the client from settings and an address lookup (tests inject a fake lookup). */
/**
 * DESIGN principle 6: bounded concurrency per destination address and per prefix
 * (Destinations.ts): many sites share one hosting address, so a batch must not crowd it. One per
 * Web service, shared by its page fetches and its TLS scans (WebTlsScan.ts).
 */
export const webDestinations = (settings: WebSettings) =>
  new Destinations<WebError>({
    kind: "https",
    perAddress: settings.perDestination ?? 4,
    perPrefix: settings.perPrefix ?? 16,
    backoffMs: settings.backoffMs ?? 0
  })

export const makeWeb = (
  settings: WebSettings,
  lookup: AddressLookup,
  destinations: Destinations<WebError> = webDestinations(settings)
) => {
  const global = new Permits(GLOBAL_CONCURRENCY)
  const fetchOnce = (url: URL, options: WebRequestOptions, maxBytes: number, deadline: Deadline) =>
    Effect.gen(function* () {
      // The look-up is bounded by the resolver's own timeouts; the budget is checked after it.
      const addresses = yield* vettedAddresses(settings, options.lookup ?? lookup, url)
      let last: WebError | undefined
      for (const address of addresses) {
        if (performance.now() >= deadline.at) return yield* Effect.fail(deadline.error())
        const port = Number(url.port || (url.protocol === "https:" ? 443 : 80))
        // An address that did not answer a moment ago gives the same answer without a knock; asked
        // before waiting for its permit and again after, so those queued behind it do not knock.
        let remembered = false
        const ifAnswering = <A>(then: Effect.Effect<A, WebError>) =>
          Effect.suspend(() => {
            const first = destinations.backedOff(address, port)
            if (first === undefined) return then
            remembered = true
            return Effect.fail(
              webError(url.href, first.reason, first.message, address, first.connectionRefused)
            )
          })
        // The destination's permits first: a global one is not held while waiting on a busy address.
        const exchange = global.around(
          attempt(settings, url, address, options, maxBytes, deadline),
          deadline.at,
          deadline.error
        )
        const result = yield* Effect.either(
          ifAnswering(destinations.around(address, ifAnswering(exchange), deadline.at, deadline.error))
        )
        if (result._tag === "Right") return { ...result.right, address }
        last = result.left
        if (!remembered && unanswered(last)) destinations.backOff(address, port, last)
        // Only an unreachable address is worth trying the next one for; TLS and HTTP errors are the site's answer.
        if (last.reason !== "connect" && last.reason !== "timeout") break
      }
      return yield* Effect.fail(last!)
    })

  /**
   * One budget (`timeoutMs`) over every hop: each permit wait and exchange ends at its deadline, in
   * the fetch's own fiber (a timeout race forked two more fibers per fetch: `Permits.ts`).
   */
  const get = (text: string, options: WebRequestOptions = {}) =>
    Effect.suspend(() => {
      const timeoutMs = Math.min(options.timeoutMs ?? settings.timeoutMs, settings.timeoutMs)
      const maxBytes = Math.min(options.maxBytes ?? settings.maxBodyBytes, settings.maxBodyBytes)
      const deadline: Deadline = {
        at: performance.now() + timeoutMs,
        error: () => webError(text, "timeout", `no complete response within ${timeoutMs} ms`)
      }
      return Effect.gen(function* () {
        const target = parseTarget(text)
        if (target instanceof WebError) return yield* Effect.fail(target)
        let url = target.url
        const redirects: Array<Redirect> = []
        for (;;) {
          const res = yield* fetchOnce(url, options, maxBytes, deadline)
          const headers = joinHeaders(res.rawHeaders)
          const location = headers["location"]
          if (options.followRedirects !== false && REDIRECTS.has(res.status) && location !== undefined) {
            if (redirects.length >= MAX_REDIRECTS)
              return yield* Effect.fail(webError(text, "redirect", `more than ${MAX_REDIRECTS} redirects`))
            let next: URL
            try {
              next = new URL(location, url)
            } catch {
              return yield* Effect.fail(
                webError(url.href, "redirect", `invalid redirect location ${location}`)
              )
            }
            const parsed = parseTarget(next.href)
            if (parsed instanceof WebError)
              return yield* Effect.fail(webError(url.href, "redirect", parsed.message))
            const setCookies = setCookieValues(res.rawHeaders)
            redirects.push({ url: url.href, status: res.status, location: parsed.url.href, setCookies })
            url = parsed.url
            continue
          }
          const response: WebResponse = {
            url: text,
            finalUrl: url.href,
            status: res.status,
            headers,
            rawHeaders: res.rawHeaders,
            body: res.body,
            truncated: res.truncated,
            redirects,
            address: res.address,
            tls: res.tls
          }
          return response
        }
      })
    }).pipe(
      Effect.tapBoth({
        onSuccess: () => Effect.sync(() => M.httpsFetches.unsafeUpdate(1, RESPONSE)),
        onFailure: (e) => Effect.sync(() => M.httpsFetches.unsafeUpdate(1, fetchFailure(e.reason)))
      }),
      traced("Web.get", { url: text })
    )

  return { get, alpn: probeAlpn(settings, lookup) } as const
}

export type WebClient = ReturnType<typeof makeWeb>
