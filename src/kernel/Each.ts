/**
 * `Effect.forEach` with a concurrency, for gathers that fan out over a few items (an SPF record's
 * terms, an MX set, a domain's name servers), with two fibers fewer: `forEach` forks one fiber that
 * collects the results and one per element in flight, even for a single element, and a batch keeps
 * ~1,000 scans in flight (docs/bench.md, the batch). Here the calling fiber works through the items
 * itself beside `concurrency - 1` forked ones: none for one item, one for two.
 *
 * The items start in order and the results keep it, as with `forEach`. For work that cannot fail
 * (a gather folds its failures into data): a defect in the calling fiber's share interrupts the
 * forked workers, but one in a forked worker's surfaces once the calling fiber's share is done,
 * where `forEach` would interrupt the others at once.
 */
import { Effect, Exit, Fiber } from "effect"

export const forEachConcurrently = <A, B, R>(
  items: Iterable<A>,
  f: (item: A, i: number) => Effect.Effect<B, never, R>,
  concurrency: number | "unbounded"
): Effect.Effect<Array<B>, never, R> =>
  Effect.suspend(() => {
    const all = Array.from(items)
    const width = Math.min(all.length, concurrency === "unbounded" ? all.length : Math.max(1, concurrency))
    if (width <= 1) return Effect.forEach(all, f)
    const results = new Array<B>(all.length)
    let next = 0
    const worker: Effect.Effect<void, never, R> = Effect.suspend(() => {
      if (next >= all.length) return Effect.void
      const i = next++
      return Effect.flatMap(f(all[i]!, i), (b) => {
        results[i] = b
        return worker
      })
    })
    return Effect.flatMap(
      Effect.forEach(Array.from({ length: width - 1 }), () => Effect.fork(worker)),
      (forked) =>
        Effect.zipRight(worker, Effect.forEach(forked, Fiber.join, { discard: true })).pipe(
          Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Fiber.interruptAll(forked))),
          Effect.as(results)
        )
    )
  })
