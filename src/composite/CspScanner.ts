/**
 * POST /csp/scan as a service: URL refusal (400), per-origin result cache (10 min), per-client
 * rate limit (3 scans / 10 min, cache hits free, 429 + Retry-After), around the crawl and the
 * analysis (`checks/csp/`).
 * A crawl that reached no page is inconclusive (502) and is neither cached nor analysed.
 */
import { Clock, Deferred, Effect, Exit, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { crawl, normaliseScanUrl } from "../checks/csp/CspCrawl.ts"
import { analyseCrawl, type CspScanResult } from "../checks/csp/CspResult.ts"
import { withFacts } from "../scan/Scanner.ts"

export const CACHE_TTL_MS = 10 * 60_000
export const RATE_WINDOW_MS = 10 * 60_000
export const RATE_LIMIT = 3

export class CspScanError extends Schema.TaggedError<CspScanError>()("CspScanError", {
  reason: Schema.Literal("invalid-url", "rate-limited", "inconclusive"),
  message: Schema.String,
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

/**
 * Crawl from `start` and analyse what was found: the CSP scan without its cache and rate limit
 * (POST /csp/scan wraps it; a deep web scan calls it directly). A crawl that reached no page fails:
 * `invalid-url` for a refused target, else `inconclusive`.
 */
export const crawlAndAnalyse = (
  start: URL,
  strict: boolean,
  limits: { readonly maxPages: number; readonly budgetMs: number }
) =>
  Effect.gen(function* () {
    // One Facts per crawl: each page is fetched once, through the guarded client.
    const data = yield* withFacts(start.hostname, crawl(start, limits))
    if (data.pages.length === 0) {
      if (data.startError?.reason === "refused-address" || data.startError?.reason === "invalid-url")
        return yield* new CspScanError({ reason: "invalid-url", message: data.startError.message })
      const why = data.failures[0]?.reason ?? "the crawl budget ran out before the first page"
      return yield* new CspScanError({
        reason: "inconclusive",
        message: `no page could be crawled: ${why}`
      })
    }
    return analyseCrawl(data, strict, new Date(yield* Clock.currentTimeMillis))
  })

export class CspScanner extends Effect.Service<CspScanner>()("CspScanner", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const cache = new Map<string, { readonly at: number; readonly result: CspScanResult }>()
    /** Scans running now, so a second request for the same origin waits for the first (free, like a hit). */
    const inFlight = new Map<string, Deferred.Deferred<CspScanResult, CspScanError>>()
    const scansByClient = new Map<string, Array<number>>()
    const limits = { maxPages: config.cspMaxPages, budgetMs: config.cspBudgetMs }

    /** Sliding window: returns seconds to wait, or 0 after recording the scan. */
    const admit = (client: string, now: number): number => {
      const recent = (scansByClient.get(client) ?? []).filter((t) => now - t < RATE_WINDOW_MS)
      if (recent.length >= RATE_LIMIT) {
        scansByClient.set(client, recent)
        return Math.max(1, Math.ceil((recent[0]! + RATE_WINDOW_MS - now) / 1000))
      }
      recent.push(now)
      scansByClient.set(client, recent)
      if (scansByClient.size > 10_000)
        for (const [k, v] of scansByClient)
          if (v.every((t) => now - t >= RATE_WINDOW_MS)) scansByClient.delete(k)
      return 0
    }

    const run = (start: URL, strict: boolean) =>
      crawlAndAnalyse(start, strict, limits).pipe(
        Effect.tap((result) =>
          Effect.sync(() => {
            const done = Date.parse(result.scannedAt)
            for (const [k, v] of cache) if (done - v.at >= CACHE_TTL_MS) cache.delete(k)
          })
        )
      )

    const scan = Effect.fn("CspScanner.scan")(function* (
      request: { readonly url: string; readonly strict?: boolean | undefined },
      clientIp: string
    ) {
      const strict = request.strict ?? false
      const start = normaliseScanUrl(request.url)
      // A target refused by the address policy costs a scan, as it does when a name resolves to one.
      const refusedWait =
        !(start instanceof URL) && start.byAddressPolicy ? admit(clientIp, yield* Clock.currentTimeMillis) : 0
      if (refusedWait > 0)
        return yield* new CspScanError({
          reason: "rate-limited",
          message: `at most ${RATE_LIMIT} CSP scans per 10 minutes; retry in ${refusedWait} s`,
          retryAfterSeconds: refusedWait
        })
      if (!(start instanceof URL))
        return yield* new CspScanError({ reason: "invalid-url", message: start.refused })
      yield* Effect.annotateCurrentSpan("origin", start.origin)
      const key = `${start.origin}|${strict}`
      const now = yield* Clock.currentTimeMillis
      const hit = cache.get(key)
      if (hit && now - hit.at < CACHE_TTL_MS) return { ...hit.result, cached: true }
      const running = inFlight.get(key)
      if (running) return { ...(yield* Deferred.await(running)), cached: true }
      const wait = admit(clientIp, now)
      if (wait > 0)
        return yield* new CspScanError({
          reason: "rate-limited",
          message: `at most ${RATE_LIMIT} CSP scans per 10 minutes; retry in ${wait} s`,
          retryAfterSeconds: wait
        })
      const deferred = yield* Deferred.make<CspScanResult, CspScanError>()
      inFlight.set(key, deferred)
      return yield* run(start, strict).pipe(
        Effect.tap((result) =>
          Effect.sync(() => cache.set(key, { at: Date.parse(result.scannedAt), result }))
        ),
        Effect.onExit((exit) =>
          Effect.sync(() => inFlight.delete(key)).pipe(
            Effect.zipRight(
              Exit.isInterrupted(exit)
                ? Deferred.interrupt(deferred)
                : Deferred.complete(deferred, exit as Exit.Exit<CspScanResult, CspScanError>)
            )
          )
        )
      )
    })

    return { scan } as const
  })
}) {}
