import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { SweepScheduler, type SweepTurn } from "../../src/scan/SweepScheduler.ts"

const options = {
  capacity: 4,
  crowdedZone: 2,
  targetMs: 1_000,
  growthQuestions: 64,
  initialWindow: 10,
  minWindow: 2
}

/**
 * A sweep that, each time it is launched, notes it and takes questions until it holds `window` or
 * must wait (as a scan's fan does).
 */
const sweep = (
  scheduler: SweepScheduler,
  ticket: number,
  zone: string,
  launched: Array<number>,
  window = 1
) => {
  let held = 0
  const turn: SweepTurn = {
    ticket,
    zone,
    launch: () => {
      launched.push(ticket)
      while (held < window && scheduler.take(turn)) held++
    }
  }
  return turn
}

describe("SweepScheduler", () => {
  it("gives room back to the waiting sweeps oldest first, whatever order they came in", () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1_000 }), { minLength: 1, maxLength: 40 }),
        (tickets) => {
          const scheduler = new SweepScheduler(options)
          const launched: Array<number> = []
          // The room filled by a sweep older than all of them, then every sweep waits.
          const holder = sweep(scheduler, -1, "holder", launched)
          for (let i = 0; i < options.capacity; i++) expect(scheduler.take(holder)).toBe(true)
          for (const ticket of tickets)
            expect(scheduler.take(sweep(scheduler, ticket, `z${ticket}`, launched))).toBe(false)
          expect(scheduler.waiting).toBe(tickets.length)
          // One question back at a time: the oldest waiting sweep gets it.
          for (let i = 0; i < tickets.length; i++)
            scheduler.release(i < options.capacity ? "holder" : `z${launched[i - options.capacity]}`)
          expect(launched).toEqual([...tickets].sort((a, b) => a - b))
        }
      )
    ))

  it("a running sweep yields to an older one waiting", () => {
    const scheduler = new SweepScheduler(options)
    const launched: Array<number> = []
    const young = sweep(scheduler, 5, "young", launched)
    for (let i = 0; i < options.capacity; i++) expect(scheduler.take(young)).toBe(true)
    const old = sweep(scheduler, 1, "old", launched)
    expect(scheduler.take(old)).toBe(false)
    scheduler.release("young")
    expect(launched).toEqual([1])
    // the young sweep's next question waits behind the old one while it waits
    expect(scheduler.take(young)).toBe(false)
    expect(scheduler.inFlight).toBe(options.capacity)
  })

  it("keeps room for the sweep whose question settled, unless an older one waits", () => {
    const scheduler = new SweepScheduler({ ...options, crowdedZone: options.capacity })
    const launched: Array<number> = []
    const old = sweep(scheduler, 1, "old", launched)
    for (let i = 0; i < options.capacity; i++) expect(scheduler.take(old)).toBe(true)
    const young = sweep(scheduler, 5, "young", launched)
    expect(scheduler.take(young)).toBe(false)
    scheduler.release("old", old)
    expect(launched).toEqual([1])
    expect(scheduler.waiting).toBe(1)
    const older = sweep(scheduler, 0, "older", launched)
    expect(scheduler.take(older)).toBe(false)
    scheduler.release("old", old)
    expect(launched).toEqual([1, 0])
  })

  it("bounds a zone's questions in flight only while sweeps wait for room", () => {
    const scheduler = new SweepScheduler(options)
    const launched: Array<number> = []
    const a = sweep(scheduler, 1, "a", launched)
    // alone: the whole room to one zone
    for (let i = 0; i < options.capacity; i++) expect(scheduler.take(a)).toBe(true)
    // crowded: b, the oldest waiting, gets the room back, but its zone holds at most crowdedZone
    // while c still waits; then c gets the rest
    const b = sweep(scheduler, 2, "b", launched, 4)
    const c = sweep(scheduler, 3, "c", launched, 4)
    expect(scheduler.take(b)).toBe(false)
    expect(scheduler.take(c)).toBe(false)
    for (let i = 0; i < options.capacity; i++) scheduler.release("a")
    expect(launched.slice(0, 4)).toEqual([2, 2, 2, 3])
    expect(scheduler.inFlight).toBe(options.capacity)
    // b holds 2 (it waits for its zone), c holds 2 and waits for room
    expect(scheduler.waiting).toBe(1)
    // a question of b's back: b, older than c and under its zone's bound again, asks the next
    scheduler.release("b")
    expect(launched.at(-1)).toBe(2)
    expect(scheduler.inFlight).toBe(options.capacity)
  })

  it("the window grows by one per sweep in time and halves at most once per target on late ones", () => {
    const scheduler = new SweepScheduler(options)
    for (let i = 0; i < 6; i++) scheduler.finished(500, 10_000 + i)
    expect(scheduler.window).toBe(16)
    scheduler.finished(2_000, 20_000)
    scheduler.finished(2_000, 20_100)
    scheduler.finished(2_000, 20_500)
    expect(scheduler.window).toBe(8)
    expect(scheduler.late).toBe(3)
    scheduler.finished(2_000, 21_000)
    scheduler.finished(2_000, 22_000)
    scheduler.finished(2_000, 23_000)
    expect(scheduler.window).toBe(options.minWindow)
  })

  it("a small sweep in time grows the window by its share of a full one", () => {
    const scheduler = new SweepScheduler(options)
    for (let i = 0; i < 7; i++) scheduler.finished(500, 10_000 + i, 9)
    expect(scheduler.window).toBe(10)
    scheduler.finished(500, 10_010, 9)
    expect(scheduler.window).toBe(11)
    scheduler.finished(500, 10_020, 500)
    expect(scheduler.window).toBe(12)
  })
})
