/**
 * The redirect-following client behind the `Web` service: bounded concurrency, each hop's host
 * resolved and vetted again before its exchange, the next address tried only when one is
 * unreachable, and one total budget over DNS, every hop and every body. Built from settings and an
 * address lookup, so tests drive it without a Resolver or AppConfig.
 */
import { Duration, Effect } from "effect"
import { attempt } from "./WebExchange.ts"
import { parseTarget, vettedAddresses } from "./WebTarget.ts"
import {
  type AddressLookup,
  type Redirect,
  webError,
  WebError,
  type WebRequestOptions,
  type WebResponse,
  type WebSettings
} from "./WebTypes.ts"

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
const GLOBAL_CONCURRENCY = 64
const PER_HOST_CONCURRENCY = 6

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

/** Build the client from settings and an address lookup (tests inject a fake lookup). */
export const makeWeb = (settings: WebSettings, lookup: AddressLookup) => {
  // DESIGN principle 6: bounded concurrency globally and per target host.
  const global = Effect.unsafeMakeSemaphore(GLOBAL_CONCURRENCY)
  const perHost = new Map<string, Effect.Semaphore>()
  const hostPermit = (host: string) => {
    let sem = perHost.get(host)
    if (!sem) {
      if (perHost.size > 10_000) perHost.clear()
      sem = Effect.unsafeMakeSemaphore(PER_HOST_CONCURRENCY)
      perHost.set(host, sem)
    }
    return sem.withPermits(1)
  }
  const fetchOnce = (url: URL, options: WebRequestOptions, maxBytes: number) =>
    Effect.gen(function* () {
      const addresses = yield* vettedAddresses(settings, options.lookup ?? lookup, url)
      let last: WebError | undefined
      for (const address of addresses) {
        const result = yield* Effect.either(
          attempt(settings, url, address, options, maxBytes).pipe(
            hostPermit(url.hostname),
            global.withPermits(1)
          )
        )
        if (result._tag === "Right") return { ...result.right, address }
        last = result.left
        // Only an unreachable address is worth trying the next one for; TLS and HTTP errors are the site's answer.
        if (last.reason !== "connect" && last.reason !== "timeout") break
      }
      return yield* Effect.fail(last!)
    })

  const get = Effect.fn("Web.get")(function* (text: string, options: WebRequestOptions = {}) {
    const timeoutMs = Math.min(options.timeoutMs ?? settings.timeoutMs, settings.timeoutMs)
    const maxBytes = Math.min(options.maxBytes ?? settings.maxBodyBytes, settings.maxBodyBytes)
    yield* Effect.annotateCurrentSpan("url", text)
    return yield* Effect.gen(function* () {
      const target = parseTarget(text)
      if (target instanceof WebError) return yield* Effect.fail(target)
      let url = target.url
      const redirects: Array<Redirect> = []
      for (;;) {
        const res = yield* fetchOnce(url, options, maxBytes)
        const headers = joinHeaders(res.rawHeaders)
        const location = headers["location"]
        if (options.followRedirects !== false && REDIRECTS.has(res.status) && location !== undefined) {
          if (redirects.length >= MAX_REDIRECTS)
            return yield* Effect.fail(webError(text, "redirect", `more than ${MAX_REDIRECTS} redirects`))
          let next: URL
          try {
            next = new URL(location, url)
          } catch {
            return yield* Effect.fail(webError(url.href, "redirect", `invalid redirect location ${location}`))
          }
          const parsed = parseTarget(next.href)
          if (parsed instanceof WebError)
            return yield* Effect.fail(webError(url.href, "redirect", parsed.message))
          redirects.push({ url: url.href, status: res.status, location: parsed.url.href })
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
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => webError(text, "timeout", `no complete response within ${timeoutMs} ms`)
      })
    )
  })

  return { get } as const
}

export type WebClient = ReturnType<typeof makeWeb>
