import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, TestClock } from "effect"
import { HeapRoom } from "../../src/batch/HeapRoom.ts"

/** A heap whose use the test sets; the limit is 100 bytes, so room means under 80. */
const heap = (used: number) => {
  const meter = { used: () => meter.now, limit: 100, now: used }
  return meter
}

describe("HeapRoom", () => {
  it.effect("starts a scan at once while the heap has room", () =>
    Effect.gen(function* () {
      const room = new HeapRoom(heap(10))
      expect(yield* room.admit(Effect.succeed(1))).toBe(1)
      expect(room.held).toBe(0)
    })
  )

  it.effect("a lone scan runs even on a full heap: the list never stalls", () =>
    Effect.gen(function* () {
      const room = new HeapRoom(heap(95))
      expect(yield* room.admit(Effect.succeed("alone"))).toBe("alone")
      expect(room.held).toBe(0)
    })
  )

  it.effect("holds a scan while others run on a full heap, until the heap has room again", () =>
    Effect.gen(function* () {
      const meter = heap(10)
      const room = new HeapRoom(meter, 0.8, 50)
      const release = yield* Deferred.make<void>()
      const first = yield* Effect.fork(room.admit(Deferred.await(release)))
      yield* Effect.yieldNow()
      meter.now = 90
      let started = false
      const second = yield* Effect.fork(room.admit(Effect.sync(() => (started = true))))
      yield* TestClock.adjust("200 millis")
      expect(started).toBe(false)
      expect(room.held).toBe(1)
      // a collection frees the heap: the next poll lets it start, the first still running
      meter.now = 40
      yield* TestClock.adjust("50 millis")
      yield* Fiber.join(second)
      expect(started).toBe(true)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
    })
  )

  it.effect("a scan that fails or is interrupted no longer counts as in flight", () =>
    Effect.gen(function* () {
      const meter = heap(90)
      const room = new HeapRoom(meter)
      // nothing in flight: each runs alone, and its end is counted whatever the exit
      expect(Exit.isFailure(yield* Effect.exit(room.admit(Effect.fail("boom"))))).toBe(true)
      const hanging = yield* Effect.fork(room.admit(Effect.never))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(hanging)
      expect(yield* room.admit(Effect.succeed("next"))).toBe("next")
      expect(room.held).toBe(0)
    })
  )

  it.effect(
    "holds a scan while the scans in flight fill the DNS sweeps' window, until one ends or it grows",
    () =>
      Effect.gen(function* () {
        const sweeps = { window: 2 }
        const room = new HeapRoom(heap(10), 0.8, 50, sweeps)
        const release = yield* Deferred.make<void>()
        const running = [
          yield* Effect.fork(room.admit(Deferred.await(release))),
          yield* Effect.fork(room.admit(Deferred.await(release)))
        ]
        yield* Effect.yieldNow()
        let started = false
        const third = yield* Effect.fork(room.admit(Effect.sync(() => (started = true))))
        yield* TestClock.adjust("200 millis")
        expect(started).toBe(false)
        expect(room.heldForDns).toBe(1)
        expect(room.held).toBe(0)
        // the sweeps ended in time: the window grew
        sweeps.window = 3
        yield* TestClock.adjust("50 millis")
        yield* Fiber.join(third)
        expect(started).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Effect.all(running.map(Fiber.join))
      })
  )

  it.effect("a scan's end admits the next one held at once, in the order they came, without a poll", () =>
    Effect.gen(function* () {
      const room = new HeapRoom(heap(10), 0.8, 50, { window: 1 })
      const release = yield* Deferred.make<void>()
      const first = yield* Effect.fork(room.admit(Deferred.await(release)))
      yield* Effect.yieldNow()
      const order: Array<string> = []
      const gates = [yield* Deferred.make<void>(), yield* Deferred.make<void>()]
      const held = [
        yield* Effect.fork(
          room.admit(
            Effect.zipRight(
              Effect.sync(() => order.push("second")),
              Deferred.await(gates[0]!)
            )
          )
        ),
        yield* Effect.fork(
          room.admit(
            Effect.zipRight(
              Effect.sync(() => order.push("third")),
              Deferred.await(gates[1]!)
            )
          )
        )
      ]
      yield* Effect.yieldNow()
      expect(room.heldForDns).toBe(2)
      expect(order).toEqual([])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      yield* Effect.yieldNow()
      expect(order).toEqual(["second"])
      yield* Deferred.succeed(gates[0]!, undefined)
      yield* Fiber.join(held[0]!)
      yield* Effect.yieldNow()
      expect(order).toEqual(["second", "third"])
      yield* Deferred.succeed(gates[1]!, undefined)
      yield* Fiber.join(held[1]!)
    })
  )

  it.effect(
    "a scan interrupted while held gives its place back, and one interrupted once admitted its room",
    () =>
      Effect.gen(function* () {
        const meter = heap(10)
        const room = new HeapRoom(meter, 0.8, 50, { window: 1 })
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(room.admit(Deferred.await(release)))
        yield* Effect.yieldNow()
        let ran = false
        const quitter = yield* Effect.fork(room.admit(Effect.sync(() => (ran = true))))
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(quitter)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect(ran).toBe(false)
        // nothing in flight and no one in line: the next starts at once, on a full heap too
        meter.now = 95
        expect(yield* room.admit(Effect.succeed("next"))).toBe("next")
        expect(room.held + room.heldForDns).toBe(1)
      })
  )

  it.effect("many held scans all run, never more at once than the window", () =>
    Effect.gen(function* () {
      for (const [window, count] of [
        [1, 7],
        [3, 20],
        [5, 5]
      ] as const) {
        const room = new HeapRoom(heap(10), 0.8, 50, { window })
        let running = 0
        let most = 0
        const scan = Effect.gen(function* () {
          running++
          most = Math.max(most, running)
          yield* TestClock.adjust("1 millis")
          yield* Effect.yieldNow()
          running--
        })
        const fibers = yield* Effect.forEach(Array.from({ length: count }), () =>
          Effect.fork(room.admit(scan))
        )
        yield* TestClock.adjust("1 second")
        yield* Effect.forEach(fibers, Fiber.join)
        expect(most).toBeLessThanOrEqual(window)
        expect(running).toBe(0)
      }
    })
  )
})
