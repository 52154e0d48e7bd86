/**
 * Shared, briefly cached results of the service's own work: full scans (`Scans`), the composite
 * endpoints (`/email/check`), the CSP crawl and the report summaries. Concurrent requests for one
 * key share one run; a finished result is served again for `ttlMs` (at most `size` keys, the least
 * recently used dropped first); a failed run is shared with those waiting for it but not kept; when
 * every request waiting for a run has gone away before it finished, the run is interrupted, so the
 * admission gate still bounds the work. SPEC: "Repeated scans of the same domain may be served
 * from cached work."
 *
 * The keeping and the sharing are the transport cache's (net/TransportCache.ts), the one mechanism
 * every cache of the process uses; this is its door for work that is forked into the service's
 * scope (a request that goes away does not take a run others wait on with it), fails with typed
 * errors, and may be charged for (`beforeRun`).
 *
 * Without it a crowd asking `/email/check` for one domain ran the ~60 ms of CPU of the whole check
 * once per admitted request, and those runs filled the event loop that /health shares.
 */
import { Clock, Effect, Exit, FiberId, type Scope } from "effect"
import { type Asker, type Flight, TransportCache } from "../net/TransportCache.ts"

/**
 * How a key is told apart: a string key is itself; any other (a typed request) says which text
 * identifies it, so that two equal requests share one run.
 */
type KeyText<K> = K extends string
  ? { readonly keyText?: (key: K) => string }
  : { readonly keyText: (key: K) => string }

/** Where a result came from: the cache, a run another request started, or a run this one started. */
export type Source = "cache" | "joined" | "ran"

const SOURCES = { cache: "cache", shared: "joined", upstream: "ran" } as const

/** A request's place among a key's askers: it hears the outcome at once or later. */
class Waiter<A, E> implements Asker<A, E> {
  exit: Exit.Exit<A, E> | undefined
  resume: ((exit: Exit.Exit<A, E>) => void) | undefined
  waiting = true
  constructor(readonly now: number) {}
  wanted() {
    return this.waiting
  }
  done(exit: Exit.Exit<A, E>) {
    this.exit = exit
    this.resume?.(exit)
  }
}

export const makeShared = <A, E = never, K = string>(
  run: (key: K) => Effect.Effect<A, E>,
  options: { readonly ttlMs: number; readonly size: number; readonly scope: Scope.Scope } & KeyText<K>
) => {
  const text = (key: K): string => (options.keyText ? options.keyText(key) : String(key))
  const cache = new TransportCache<A, E>({
    capacity: options.size,
    keepMs: (exit) => (Exit.isSuccess(exit) && options.size > 0 ? options.ttlMs : 0)
  })

  /** The run, forked into the service's scope: it lands for every asker, its age from its end. */
  const start = (request: K, flight: Flight<A, E>) =>
    run(request).pipe(
      Effect.onExit((exit) => Effect.map(Clock.currentTimeMillis, (at) => flight.land(exit, at))),
      Effect.interruptible, // forked under `share`'s mask, it must stay interruptible itself
      Effect.forkIn(options.scope),
      Effect.map((fiber) => flight.onGiveUp(() => void fiber.unsafeInterruptAsFork(FiberId.none)))
    )

  /** Waits for the outcome; a request that goes away leaves, which may give the run up. */
  const await_ = (key: string, waiter: Waiter<A, E>) =>
    Effect.async<Exit.Exit<A, E>>((resume) => {
      if (waiter.exit !== undefined) return resume(Effect.succeed(waiter.exit))
      waiter.resume = (exit) => resume(Effect.succeed(exit))
      return Effect.sync(() => {
        waiter.waiting = false
        waiter.resume = undefined
        cache.leave(key, waiter)
      })
    })

  /**
   * The result for `key` and where it came from. `beforeRun` runs only when this request would
   * start a new run (a rate limit that charges runs, not cache hits); its failure starts nothing.
   */
  const share = <E2 = never>(
    request: K,
    beforeRun: Effect.Effect<void, E2> = Effect.void
  ): Effect.Effect<{ readonly result: A; readonly source: Source }, E | E2> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        const key = text(request)
        if (!cache.answers(key, yield* Clock.currentTimeMillis)) yield* restore(beforeRun)
        // The run may have been started, or a result kept, while `beforeRun` waited.
        const waiter = new Waiter<A, E>(yield* Clock.currentTimeMillis)
        let flight: Flight<A, E> | undefined
        const source = cache.ask(key, waiter, (f) => void (flight = f))
        if (flight !== undefined) yield* start(request, flight)
        const exit = waiter.exit ?? (yield* restore(await_(key, waiter)))
        const result = yield* exit
        return { result, source: SOURCES[source] }
      })
    )

  /** The result for `key`: cached, shared with a run under way, or computed now. */
  const get = (key: K): Effect.Effect<A, E> => Effect.map(share(key), ({ result }) => result)

  return { get, share } as const
}
