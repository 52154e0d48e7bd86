import * as fc from "fast-check"
import { Effect, Exit, Ref, Supervisor } from "effect"
import { describe, expect, it } from "vitest"
import { forEachConcurrently } from "../../src/kernel/Each.ts"

/** An item that waits `turns` turns of the scheduler before it answers. */
const waits = (turns: number) => Effect.forEach(Array.from({ length: turns }), () => Effect.yieldNow())

class Forks extends Supervisor.AbstractSupervisor<void> {
  count = 0
  value = Effect.void
  override onStart() {
    this.count++
  }
}

/** The fibers `effect` forks. */
const forks = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const supervisor = new Forks()
    yield* Effect.exit(effect.pipe(Effect.supervised(supervisor)))
    return supervisor.count
  })

describe("forEachConcurrently", () => {
  it("gives what Effect.forEach gives, in order, with at most `concurrency` items at work at once", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(5), { maxLength: 12 }),
        fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant("unbounded" as const)),
        (delays, concurrency) =>
          Effect.runPromise(
            Effect.gen(function* () {
              let atWork = 0
              let most = 0
              const started: Array<number> = []
              const results = yield* forEachConcurrently(
                delays,
                (turns, i) =>
                  Effect.sync(() => {
                    started.push(i)
                    most = Math.max(most, ++atWork)
                  }).pipe(
                    Effect.zipRight(waits(turns)),
                    Effect.map(() => (atWork--, `${i}:${turns}`))
                  ),
                concurrency
              )
              expect(results).toEqual(delays.map((turns, i) => `${i}:${turns}`))
              expect(started).toEqual(delays.map((_, i) => i))
              expect(most).toBeLessThanOrEqual(
                concurrency === "unbounded" ? Math.max(1, delays.length) : concurrency
              )
            })
          )
      ),
      { numRuns: 200 }
    ))

  it("works one item in the calling fiber, two with one fiber forked", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        expect(yield* forks(forEachConcurrently([1], (n) => Effect.succeed(n), 4))).toBe(0)
        expect(yield* forks(forEachConcurrently([1, 2], (n) => Effect.succeed(n), 4))).toBe(1)
        expect(yield* forks(Effect.forEach([1, 2], (n) => Effect.succeed(n), { concurrency: 4 }))).toBe(3)
      })
    ))

  it("a defect in the calling fiber's share interrupts the forked workers; a forked one's surfaces", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const interrupted = yield* Ref.make(0)
        const exit = yield* Effect.exit(
          forEachConcurrently(
            [0, 1, 2],
            (i) =>
              i === 0
                ? Effect.zipRight(Effect.yieldNow(), Effect.die("boom"))
                : Effect.never.pipe(Effect.onInterrupt(() => Ref.update(interrupted, (n) => n + 1))),
            3
          )
        )
        expect(exit).toEqual(Exit.die("boom"))
        expect(yield* Ref.get(interrupted)).toBe(2)
        const forked = yield* Effect.exit(
          forEachConcurrently([0, 1], (i) => (i === 1 ? Effect.die("late") : Effect.succeed(i)), 2)
        )
        expect(forked).toEqual(Exit.die("late"))
      })
    ))
})
