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
 * - A scan with names its owner listed for the takeover check (`names=`) is a run of its own, shared
 *   and cached under the domain and the names. It is not reported to `ScanHistory`: the history and
 *   the hall of fame keep the scan anybody gets of the domain, so that a diff never shows a finding
 *   come and go with what one caller listed.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"
import { ScanHistory } from "./ScanHistory.ts"
import { scan } from "./Scanner.ts"
import { makeShared } from "./Shared.ts"
import { type ScanResult } from "./ScanResult.ts"

interface ScanRequest {
  readonly domain: Domain
  readonly names: ReadonlyArray<string>
}

// A normalised domain or name holds no space or comma, so equal requests have one key and no two
// requests share one.
const keyOf = ({ domain, names }: ScanRequest) =>
  names.length === 0 ? domain : `${domain} ${[...names].sort().join(",")}`

export class Scans extends Effect.Service<Scans>()("Scans", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const context = yield* Effect.context<Resolver | Web | Smtp | AppConfig>()
    const scope = yield* Effect.scope
    const history = yield* ScanHistory
    const shared = makeShared(
      ({ domain, names }: ScanRequest) =>
        names.length === 0
          ? scan(domain).pipe(Effect.tap(history.record), Effect.provide(context))
          : scan(domain, { names }).pipe(Effect.provide(context)),
      { ttlMs: config.scanCacheTtlMs, size: config.scanCacheSize, scope, keyText: keyOf }
    )

    /**
     * The full scan of `domain` (with the takeover check also at `names`, normalised): cached
     * (`cached: true`), shared with a run under way, or computed now.
     */
    const get = (domain: Domain, names: ReadonlyArray<string> = []): Effect.Effect<ScanResult> =>
      Effect.map(shared.share({ domain, names }), ({ result, source }) =>
        source === "cache" ? { ...result, cached: true } : result
      )

    return { scan: get }
  })
}) {}
