/**
 * Shared, briefly cached results, the one mechanism behind full scans (`Scans`), the composite
 * endpoints (`/email/check`) and the CSP crawl: concurrent requests for one key share one run; a
 * finished result is served again for `ttlMs` (at most `size` keys, oldest evicted first); a failed
 * run is shared with those waiting for it but not kept; when every request waiting for a run has
 * gone away before it finished, the run is interrupted, so the admission gate still bounds the work.
 * SPEC: "Repeated scans of the same domain may be served from cached work."
 *
 * Without it a crowd asking `/email/check` for one domain ran the ~60 ms of CPU of the whole check
 * once per admitted request, and those runs filled the event loop that /health shares.
 */
import { Clock, Effect, Fiber, type Scope } from "effect"

interface Run<A, E> {
  readonly fiber: Fiber.RuntimeFiber<A, E>
  waiters: number
}

/**
 * How a key is told apart: a string key is itself; any other (a typed request) says which text
 * identifies it, so that two equal requests share one run.
 */
type KeyText<K> = K extends string
  ? { readonly keyText?: (key: K) => string }
  : { readonly keyText: (key: K) => string }

/** Where a result came from: the cache, a run another request started, or a run this one started. */
export type Source = "cache" | "joined" | "ran"

export const makeShared = <A, E = never, K = string>(
  run: (key: K) => Effect.Effect<A, E>,
  options: { readonly ttlMs: number; readonly size: number; readonly scope: Scope.Scope } & KeyText<K>
) => {
  const text = (key: K): string => (options.keyText ? options.keyText(key) : String(key))
  const running = new Map<string, Run<A, E>>()
  // Insertion order is age order: the oldest entry is evicted first.
  const finished = new Map<string, { readonly atMs: number; readonly result: A }>()

  const remember = (key: string, result: A) =>
    Effect.map(Clock.currentTimeMillis, (atMs) => {
      if (options.ttlMs <= 0) return
      finished.delete(key)
      finished.set(key, { atMs, result })
      while (finished.size > Math.max(0, options.size)) finished.delete(finished.keys().next().value!)
    })

  const start = (key: K, id: string) =>
    Effect.gen(function* () {
      const fiber = yield* run(key).pipe(
        Effect.tap((result) => remember(id, result)),
        Effect.ensuring(Effect.sync(() => running.delete(id))),
        Effect.interruptible, // forked under `share`'s mask, it must stay interruptible itself
        Effect.forkIn(options.scope)
      )
      const entry: Run<A, E> = { fiber, waiters: 0 }
      running.set(id, entry)
      return entry
    })

  const leave = (key: string, entry: Run<A, E>) =>
    Effect.suspend(() => {
      entry.waiters--
      if (entry.waiters > 0 || running.get(key) !== entry) return Effect.void
      running.delete(key)
      return Fiber.interruptFork(entry.fiber)
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
        const hit = finished.get(key)
        if (hit && (yield* Clock.currentTimeMillis) - hit.atMs < options.ttlMs)
          return { result: hit.result, source: "cache" as const }
        let entry = running.get(key)
        const source = entry === undefined ? ("ran" as const) : ("joined" as const)
        if (entry === undefined) {
          yield* restore(beforeRun)
          // The run may have been started while `beforeRun` waited.
          entry = running.get(key) ?? (yield* start(request, key))
        }
        const joined = entry
        joined.waiters++
        const result = yield* restore(Fiber.join(joined.fiber)).pipe(Effect.ensuring(leave(key, joined)))
        return { result, source }
      })
    )

  /** The result for `key`: cached, shared with a run under way, or computed now. */
  const get = (key: K): Effect.Effect<A, E> => Effect.map(share(key), ({ result }) => result)

  return { get, share } as const
}
