/**
 * The scheduler of costly work (src/http/edge/Slices.ts): every task runs once, in order, a slice
 * at a time, and a slice starts no task once its time is spent. The clock is the test's own: no
 * wall-clock time is asserted.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import fc from "fast-check"
import { type SliceClock, SlicedScheduler } from "../../../src/http/edge/Slices.ts"
import { runs } from "../../support/runs.ts"

/** A clock that moves only when a task says so, and slices run when the test says so. */
const fakeClock = () => {
  let now = 0
  const pending: Array<() => void> = []
  const clock: SliceClock = { now: () => now, later: (run) => void pending.push(run) }
  return {
    clock,
    advance: (ms: number) => {
      now += ms
    },
    pending: () => pending.length,
    /** Run the next slice; false when none is pending. */
    step: () => {
      const run = pending.shift()
      if (run === undefined) return false
      run()
      return true
    }
  }
}

describe("the sliced scheduler of costly work", () => {
  it("runs every task once, in order, and each slice only while its time lasts (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        // each task: its cost in ms, and how many tasks it schedules when it runs
        fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 2 })), {
          minLength: 1,
          maxLength: 60
        }),
        (sliceMs, plan) => {
          const t = fakeClock()
          const scheduler = new SlicedScheduler(sliceMs, t.clock)
          const ran: Array<number> = []
          let next = 0
          const costOf = (id: number) => plan[id % plan.length]![0]
          /** Per slice: the costs of the tasks it ran. */
          const slices: Array<Array<number>> = []
          const task = (id: number) => () => {
            ran.push(id)
            slices[slices.length - 1]!.push(costOf(id))
            t.advance(costOf(id))
            // at most 200 tasks in all, so the run ends
            const [, spawns] = plan[id % plan.length]!
            for (let i = 0; i < spawns && next < 200; i++) scheduler.scheduleTask(task(next++), 0)
          }
          for (let i = 0; i < plan.length; i++) scheduler.scheduleTask(task(next++), 0)
          // one slice pending, whatever was scheduled
          expect(t.pending()).toBe(1)
          for (;;) {
            slices.push([])
            if (!t.step()) break
            expect(t.pending()).toBeLessThanOrEqual(1)
          }
          slices.pop()
          expect(ran).toEqual(Array.from({ length: next }, (_, i) => i))
          expect(scheduler.waiting).toBe(0)
          slices.forEach((costs, i) => {
            expect(costs.length).toBeGreaterThan(0)
            // every task but the last began before the slice's time was spent
            const beforeLast = costs.slice(0, -1).reduce((a, b) => a + b, 0)
            expect(beforeLast).toBeLessThan(Math.max(sliceMs, 1e-9))
            // and a slice that left work for the next one had spent its time
            if (i < slices.length - 1) expect(beforeLast + costs.at(-1)!).toBeGreaterThanOrEqual(sliceMs)
          })
        }
      ),
      { numRuns: runs(200) }
    )
  })

  it("keeps running the queue after a task throws", () => {
    const t = fakeClock()
    const scheduler = new SlicedScheduler(5, t.clock)
    const ran: Array<string> = []
    scheduler.scheduleTask(() => {
      throw new Error("a task that fails")
    }, 0)
    scheduler.scheduleTask(() => void ran.push("after"), 0)
    expect(() => t.step()).toThrow("a task that fails")
    while (t.step());
    expect(ran).toEqual(["after"])
    scheduler.scheduleTask(() => void ran.push("later"), 0)
    expect(t.pending()).toBe(1)
    t.step()
    expect(ran).toEqual(["after", "later"])
  })

  it.effect("runs Effect fibers to the end, with node's turns between its slices", () =>
    Effect.gen(function* () {
      // One task a slice: a fiber that yields 50 times takes 50 turns, and a callback queued for
      // the next turn runs before it is done.
      const scheduler = new SlicedScheduler(0)
      let steps = 0
      const work = Effect.forEach(Array.from({ length: 50 }), () =>
        Effect.yieldNow().pipe(Effect.tap(() => steps++))
      )
      const fiber = yield* Effect.fork(Effect.withScheduler(work, scheduler))
      const seen = yield* Effect.async<number>((resume) => {
        setImmediate(() => setImmediate(() => resume(Effect.succeed(steps))))
      })
      yield* Fiber.join(fiber)
      expect(steps).toBe(50)
      expect(seen).toBeLessThan(50)
    })
  )
})
