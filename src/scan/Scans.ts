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
import { Clock, Effect, Fiber } from "effect"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"
import { ScanHistory } from "./ScanHistory.ts"
import { scan } from "./Scanner.ts"
import { type ScanResult } from "../checks/ScanResult.ts"

interface Run {
  readonly fiber: Fiber.RuntimeFiber<ScanResult>
  waiters: number
}

export class Scans extends Effect.Service<Scans>()("Scans", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const context = yield* Effect.context<Resolver | Web | Smtp | AppConfig>()
    const scope = yield* Effect.scope
    const history = yield* ScanHistory
    const running = new Map<string, Run>()
    // Insertion order is age order: the oldest entry is evicted first.
    const finished = new Map<string, { readonly atMs: number; readonly result: ScanResult }>()

    const remember = (domain: string, result: ScanResult) =>
      Effect.map(Clock.currentTimeMillis, (atMs) => {
        finished.delete(domain)
        finished.set(domain, { atMs, result })
        while (finished.size > Math.max(0, config.scanCacheSize))
          finished.delete(finished.keys().next().value!)
      })

    const start = (domain: string) =>
      Effect.gen(function* () {
        const fiber = yield* scan(domain).pipe(
          Effect.tap((result) => remember(domain, result)),
          Effect.tap(history.record),
          Effect.ensuring(Effect.sync(() => running.delete(domain))),
          Effect.provide(context),
          Effect.interruptible, // forked under `get`'s mask, it must stay interruptible itself
          Effect.forkIn(scope)
        )
        const run: Run = { fiber, waiters: 0 }
        running.set(domain, run)
        return run
      })

    const leave = (domain: string, run: Run) =>
      Effect.suspend(() => {
        run.waiters--
        if (run.waiters > 0 || running.get(domain) !== run) return Effect.void
        running.delete(domain)
        return Fiber.interruptFork(run.fiber)
      })

    /** The full scan of `domain`: cached, shared, or computed now. */
    const get = (rawDomain: string): Effect.Effect<ScanResult> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function* () {
          const domain = normaliseName(rawDomain)
          const hit = finished.get(domain)
          if (hit && (yield* Clock.currentTimeMillis) - hit.atMs < config.scanCacheTtlMs)
            return { ...hit.result, cached: true }
          const run = running.get(domain) ?? (yield* start(domain))
          run.waiters++
          return yield* restore(Fiber.join(run.fiber)).pipe(Effect.ensuring(leave(domain, run)))
        })
      )

    return { scan: get }
  })
}) {}
