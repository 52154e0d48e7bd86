/** Shared, briefly cached composite results (issue 12): one run per key at a time, reused for the TTL. */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, TestClock } from "effect"
import { makeShared } from "../../src/scan/Shared.ts"

describe("makeShared", () => {
  it.scoped("concurrent requests share one run; a finished one is reused for the TTL, then run again", () =>
    Effect.gen(function* () {
      let runs = 0
      const gate = yield* Deferred.make<void>()
      const shared = makeShared((key) => Effect.as(Deferred.await(gate), `${key}#${++runs}`), {
        ttlMs: 1_000,
        size: 10,
        scope: yield* Effect.scope
      })
      const waiting = yield* Effect.forkScoped(
        Effect.all(
          [1, 2, 3].map(() => shared.get("a")),
          { concurrency: 3 }
        )
      )
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(waiting)).toEqual(["a#1", "a#1", "a#1"])
      expect(yield* shared.get("a")).toBe("a#1")
      expect(yield* shared.get("b")).toBe("b#2")
      yield* TestClock.adjust("1001 millis")
      expect(yield* shared.get("a")).toBe("a#3")
    })
  )

  it.scoped("a run whose every waiter left is interrupted; TTL 0 never reuses", () =>
    Effect.gen(function* () {
      let interrupted = 0
      let runs = 0
      const shared = makeShared(
        () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted++))),
        { ttlMs: 1_000, size: 10, scope: yield* Effect.scope }
      )
      const a = yield* Effect.forkScoped(shared.get("a"))
      const b = yield* Effect.forkScoped(shared.get("a"))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(a)
      expect(interrupted).toBe(0)
      yield* Fiber.interrupt(b)
      yield* Effect.yieldNow()
      expect(interrupted).toBe(1)
      const never = makeShared(() => Effect.sync(() => ++runs), {
        ttlMs: 0,
        size: 10,
        scope: yield* Effect.scope
      })
      expect([yield* never.get("x"), yield* never.get("x")]).toEqual([1, 2])
    })
  )
})
