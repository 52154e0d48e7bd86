/**
 * Scans: the full scan of a domain as the service offers it (DESIGN.md principle 5).
 *
 * - Concurrent requests for one domain share one run.
 * - A finished scan is reused for `SCAN_CACHE_TTL_MS` (at most `SCAN_CACHE_SIZE` domains), and says
 *   so: `cached: true`, with `computedAt` the time its checks ran.
 * - A run belongs to the requests waiting for it: when the last of them goes away (its client
 *   disconnected) before the scan is done, the run is interrupted, so no scan outlives all its askers.
 * - Each run, once finished, is reported to `ScanHistory` (the hall of fame's record) exactly once,
 *   inside the run: a request joining a run or served from the cache writes nothing.
 */
import { normaliseName } from "../records/DomainName.ts"
import { Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"
import { ScanHistory } from "./ScanHistory.ts"
import { scan } from "./Scanner.ts"
import { makeShared } from "./Shared.ts"
import { type ScanResult } from "../checks/ScanResult.ts"

export class Scans extends Effect.Service<Scans>()("Scans", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const context = yield* Effect.context<Resolver | Web | Smtp | AppConfig>()
    const scope = yield* Effect.scope
    const history = yield* ScanHistory
    const shared = makeShared(
      (domain) => scan(domain).pipe(Effect.tap(history.record), Effect.provide(context)),
      { ttlMs: config.scanCacheTtlMs, size: config.scanCacheSize, scope }
    )

    /** The full scan of `domain`: cached (`cached: true`), shared with a run under way, or computed now. */
    const get = (rawDomain: string): Effect.Effect<ScanResult> =>
      Effect.map(shared.share(normaliseName(rawDomain)), ({ result, source }) =>
        source === "cache" ? { ...result, cached: true } : result
      )

    return { scan: get }
  })
}) {}
