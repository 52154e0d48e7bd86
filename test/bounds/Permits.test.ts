import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber } from "effect"
import { Permits } from "../../src/bounds/Permits.ts"
import { CurrentQueueClock, QueueClock } from "../../src/bounds/QueueClock.ts"

const later = (ms: number) => performance.now() + ms

describe("Permits", () => {
  it.live("the time a scan waits is counted on its queue clock once, however many of its fibers wait", () =>
    Effect.gen(function* () {
      const permits = new Permits(1)
      const clock = new QueueClock()
      const holder = yield* Effect.fork(permits.holding(Effect.sleep(200)))
      yield* Effect.yieldNow()
      const wait = Effect.locally(permits.holding(Effect.void), CurrentQueueClock, clock)
      const started = performance.now()
      yield* Effect.all([wait, wait], { concurrency: 2 })
      const elapsed = performance.now() - started
      yield* Fiber.join(holder)
      // Both waited the holder's 200 ms side by side: counted once, it is within the wall time.
      expect(clock.ms()).toBeGreaterThan(100)
      expect(clock.ms()).toBeLessThanOrEqual(elapsed + 1)
      // A permit free at once is no wait.
      const free = new QueueClock()
      yield* Effect.locally(permits.holding(Effect.void), CurrentQueueClock, free)
      expect(free.ms()).toBe(0)
    })
  )

  it.live("at most n hold a permit at once; waiters are served in arrival order", () =>
    Effect.gen(function* () {
      const permits = new Permits(2)
      let holding = 0
      let peak = 0
      const order: Array<number> = []
      const work = (i: number) =>
        permits.around(
          Effect.gen(function* () {
            order.push(i)
            peak = Math.max(peak, ++holding)
            yield* Effect.sleep("5 millis")
            holding--
          }),
          later(5_000),
          () => "timeout"
        )
      yield* Effect.all(
        Array.from({ length: 8 }, (_, i) => work(i)),
        { concurrency: "unbounded" }
      )
      expect(peak).toBe(2)
      expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    })
  )

  it.live("a waiter gives up at its deadline; the permit is still there for the next", () =>
    Effect.gen(function* () {
      const permits = new Permits(1)
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(
        permits.around(Deferred.await(release), later(5_000), () => "timeout")
      )
      yield* Effect.sleep("2 millis")
      const started = performance.now()
      const waited = yield* Effect.either(permits.around(Effect.succeed("ran"), later(30), () => "timeout"))
      expect(waited).toEqual(Either.left("timeout"))
      expect(performance.now() - started).toBeGreaterThanOrEqual(25)
      // a deadline already past fails at once, without waiting
      expect(yield* Effect.either(permits.around(Effect.void, later(-1), () => "late"))).toEqual(
        Either.left("late")
      )
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      expect(yield* permits.around(Effect.succeed("ran"), later(100), () => "timeout")).toBe("ran")
    })
  )

  it.live("an interrupted waiter or holder leaks no permit", () =>
    Effect.gen(function* () {
      const permits = new Permits(1)
      const holder = yield* Effect.fork(permits.around(Effect.never, later(5_000), () => "timeout"))
      yield* Effect.sleep("2 millis")
      const waiter = yield* Effect.fork(permits.around(Effect.succeed("w"), later(5_000), () => "timeout"))
      yield* Effect.sleep("2 millis")
      // the waiter leaves the queue, then the holder gives its permit back
      yield* Fiber.interrupt(waiter)
      yield* Fiber.interrupt(holder)
      expect(yield* permits.around(Effect.succeed("next"), later(100), () => "timeout")).toBe("next")
      // a permit passed to a waiter at the moment it is interrupted is passed on, not lost
      const second = yield* Effect.fork(permits.around(Effect.never, later(5_000), () => "timeout"))
      yield* Effect.sleep("2 millis")
      const racing = yield* Effect.fork(permits.around(Effect.never, later(5_000), () => "timeout"))
      yield* Effect.sleep("2 millis")
      yield* Effect.all([Fiber.interrupt(second), Fiber.interrupt(racing)], { concurrency: "unbounded" })
      expect(yield* permits.around(Effect.succeed("last"), later(100), () => "timeout")).toBe("last")
    })
  )

  it.live("a bounded queue refuses one more at once, and says why and how full it was", () =>
    Effect.gen(function* () {
      const refusals: Array<unknown> = []
      const permits = new Permits(1, {
        maxWaiting: 1,
        onRefuse: (why, stats) => refusals.push({ why, stats })
      })
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(permits.holding(Deferred.await(release)))
      yield* Effect.sleep("2 millis")
      const waiter = yield* Effect.fork(permits.around(Effect.succeed("waited"), later(5_000), () => "late"))
      yield* Effect.sleep("2 millis")
      expect(permits.full()).toBe(true)
      expect(permits.stats()).toEqual({ active: 1, waiting: 1 })
      // the queue is full: refused without waiting for the deadline
      expect(yield* Effect.either(permits.around(Effect.void, later(5_000), () => "full"))).toEqual(
        Either.left("full")
      )
      // a wait that runs out is refused too, once a place in the queue is free
      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(waiter)).toBe("waited")
      yield* Fiber.join(holder)
      expect(permits.stats()).toEqual({ active: 0, waiting: 0 })
      const again = yield* Deferred.make<void>()
      const second = yield* Effect.fork(permits.holding(Deferred.await(again)))
      yield* Effect.sleep("2 millis")
      expect(yield* Effect.either(permits.around(Effect.void, later(20), () => "late"))).toEqual(
        Either.left("late")
      )
      yield* Deferred.succeed(again, undefined)
      yield* Fiber.join(second)
      expect(refusals).toEqual([
        { why: "queue-full", stats: { active: 1, waiting: 1 } },
        { why: "queue-wait", stats: { active: 1, waiting: 0 } }
      ])
    })
  )
})
