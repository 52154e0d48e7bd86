/**
 * POST /csp/scan as a service: URL refusal (400), per-origin result cache (`CSP_CACHE_TTL_MS`), the caller's
 * rate limit charged only for a new crawl (`charge`: the HTTP side's token bucket, 429 +
 * Retry-After; cache hits and joined crawls are free), around the crawl and the analysis
 * (`checks/csp/`).
 * A crawl that reached no page is inconclusive (502) and is neither cached nor analysed.
 */
import { Clock, Effect, Either, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { crawl, normaliseScanUrl } from "../checks/csp/CspCrawl.ts"
import { analyseCrawl } from "../checks/csp/CspResult.ts"
import { Facts } from "../kernel/Facts.ts"
import { makeFacts } from "../scan/FactsLive.ts"
import { NormalDomain } from "../records/DomainName.ts"
import { makeShared } from "../scan/Shared.ts"

/** Origins kept at once; beyond, the oldest result is dropped (a crawl costs up to 20 fetches). */
export const CACHE_SIZE = 1_000

export class CspScanError extends Schema.TaggedError<CspScanError>()("CspScanError", {
  reason: Schema.Literal("invalid-url", "rate-limited", "inconclusive"),
  message: Schema.String,
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

const decodeHost = Schema.decodeUnknownEither(NormalDomain)

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
    // One Facts per crawl: each page is fetched once, through the guarded client. They are the
    // Facts of a URL's host (an address the policy refuses is the crawl's own finding), not of a
    // domain the engine scans, so they are made here rather than through `withFacts`: the host is a
    // Domain by its shape alone (no public suffix asked), as normaliseScanUrl took it.
    const host = decodeHost(start.hostname.replace(/\.$/, ""))
    if (Either.isLeft(host))
      return yield* new CspScanError({
        reason: "invalid-url",
        message: `invalid host name: ${start.hostname}`
      })
    const data = yield* Effect.flatMap(Effect.scope, (scope) => makeFacts(host.right, scope)).pipe(
      Effect.flatMap((facts) => crawl(start, limits).pipe(Effect.provideService(Facts, facts))),
      Effect.scoped
    )
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
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const limits = { maxPages: config.cspMaxPages, budgetMs: config.cspBudgetMs }

    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof crawlAndAnalyse>>>()
    /**
     * One crawl per origin and mode at a time, kept for CSP_CACHE_TTL_MS: a second request for it waits
     * for the first, and like a cache hit it is free. An inconclusive crawl is not kept.
     */
    const crawls = makeShared(
      (key) => {
        const [origin = "", strict] = key.split("|")
        return crawlAndAnalyse(new URL(origin), strict === "true", limits).pipe(Effect.provide(context))
      },
      { ttlMs: config.cspCacheTtlMs, size: CACHE_SIZE, scope: yield* Effect.scope }
    )

    const scan = Effect.fn("CspScanner.scan")(function* (
      request: { readonly url: string; readonly strict?: boolean | undefined },
      /** Take one of the caller's scans: 0 when admitted, else the seconds until one is back. */
      charge: () => number
    ) {
      const strict = request.strict ?? false
      const start = normaliseScanUrl(request.url)
      // A target refused by the address policy costs a scan, as it does when a name resolves to one.
      const refusedWait = !(start instanceof URL) && start.byAddressPolicy ? charge() : 0
      if (refusedWait > 0)
        return yield* new CspScanError({
          reason: "rate-limited",
          message: `too many CSP scans from your address; retry in ${refusedWait} s`,
          retryAfterSeconds: refusedWait
        })
      if (!(start instanceof URL))
        return yield* new CspScanError({ reason: "invalid-url", message: start.refused })
      yield* Effect.annotateCurrentSpan("origin", start.origin)
      const key = `${start.origin}|${strict}`
      const admitted = Effect.suspend(() => {
        const wait = charge()
        return wait > 0
          ? new CspScanError({
              reason: "rate-limited",
              message: `too many CSP scans from your address; retry in ${wait} s`,
              retryAfterSeconds: wait
            })
          : Effect.void
      })
      const { result, source } = yield* crawls.share(key, admitted)
      return source === "ran" ? result : { ...result, cached: true }
    })

    return { scan } as const
  })
}) {}
