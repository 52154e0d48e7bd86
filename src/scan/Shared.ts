/**
 * Shared, briefly cached results of a composite endpoint (issue 12), the way `Scans` serves full
 * scans: concurrent requests for one key share one run; a finished result is served again for
 * `ttlMs` (at most `size` keys, oldest evicted first); when every request waiting for a run has gone
 * away before it finished, the run is interrupted, so the admission gate still bounds the work.
 * SPEC: "Repeated scans of the same domain may be served from cached work."
 *
 * Without it a crowd asking `/email/check` for one domain ran the ~60 ms of CPU of the whole check
 * once per admitted request, and those runs filled the event loop that /health shares.
 */
import { Clock, Effect, Fiber, type Scope } from "effect"

interface Run<A> {
  readonly fiber: Fiber.RuntimeFiber<A>
  waiters: number
}

export const makeShared = <A>(
  run: (key: string) => Effect.Effect<A>,
  options: { readonly ttlMs: number; readonly size: number; readonly scope: Scope.Scope }
) => {
  const running = new Map<string, Run<A>>()
  // Insertion order is age order: the oldest entry is evicted first.
  const finished = new Map<string, { readonly atMs: number; readonly result: A }>()

  const remember = (key: string, result: A) =>
    Effect.map(Clock.currentTimeMillis, (atMs) => {
      if (options.ttlMs <= 0) return
      finished.delete(key)
      finished.set(key, { atMs, result })
      while (finished.size > Math.max(0, options.size)) finished.delete(finished.keys().next().value!)
    })

  const start = (key: string) =>
    Effect.gen(function* () {
      const fiber = yield* run(key).pipe(
        Effect.tap((result) => remember(key, result)),
        Effect.ensuring(Effect.sync(() => running.delete(key))),
        Effect.interruptible, // forked under `get`'s mask, it must stay interruptible itself
        Effect.forkIn(options.scope)
      )
      const entry: Run<A> = { fiber, waiters: 0 }
      running.set(key, entry)
      return entry
    })

  const leave = (key: string, entry: Run<A>) =>
    Effect.suspend(() => {
      entry.waiters--
      if (entry.waiters > 0 || running.get(key) !== entry) return Effect.void
      running.delete(key)
      return Fiber.interruptFork(entry.fiber)
    })

  /** The result for `key`: cached, shared with a run under way, or computed now. */
  const get = (key: string): Effect.Effect<A> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        const hit = finished.get(key)
        if (hit && (yield* Clock.currentTimeMillis) - hit.atMs < options.ttlMs) return hit.result
        const entry = running.get(key) ?? (yield* start(key))
        entry.waiters++
        return yield* restore(Fiber.join(entry.fiber)).pipe(Effect.ensuring(leave(key, entry)))
      })
    )
  return { get } as const
}
