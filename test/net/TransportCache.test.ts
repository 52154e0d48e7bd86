import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, TestClock } from "effect"
import * as fc from "fast-check"
import {
  type Asker,
  type Flight,
  makeTransportCache,
  type Source,
  TransportCache
} from "../../src/net/TransportCache.ts"

/** An answer kept 1 s, a failure 0.1 s: the failure is kept shorter. */
const KEEP_OK = 1_000
const KEEP_FAILED = 100
const keepMs = (exit: Exit.Exit<string, string>) => (Exit.isSuccess(exit) ? KEEP_OK : KEEP_FAILED)

type Op =
  | { readonly kind: "ask"; readonly key: string; readonly dt: number }
  | { readonly kind: "land"; readonly key: string; readonly ok: boolean }

const opOver = (keys: ReadonlyArray<string>): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({
      kind: fc.constant("ask" as const),
      key: fc.constantFrom(...keys),
      // Steps that land on a kept time exactly as often as around it.
      dt: fc.constantFrom(0, 1, 99, 100, 900, 999, 1_000)
    }),
    fc.record({ kind: fc.constant("land" as const), key: fc.constantFrom(...keys), ok: fc.boolean() })
  )
const op = opOver(["a", "b", "c", "d", "e"])

/**
 * Runs `ops` against a cache, flights landing only when an op says so, and checks after each op what
 * holds whatever the capacity: one flight per key, every asker told exactly once when its flight
 * lands, never more kept than the capacity, and nothing served past its time.
 */
const run = (capacity: number, ops: ReadonlyArray<Op>) => {
  const cache = new TransportCache<string, string>({ capacity, keepMs })
  let now = 0
  /** Each flight under way, with how many outcomes each of its askers has heard. */
  const flights = new Map<string, { flight: Flight<string, string>; heard: Array<{ n: number }> }>()
  /** Until when each key's last outcome may be served (ms of the askers' clock). */
  const landed = new Map<string, number>()
  const sources: Array<{ source: Source; expected: Source | "cache-or-upstream" }> = []
  for (const o of ops) {
    if (o.kind === "ask") {
      now += o.dt
      const heard = { n: 0 }
      const asker: Asker<string, string> = { now, wanted: () => true, done: () => void heard.n++ }
      let started: Flight<string, string> | undefined
      const pending = flights.get(o.key)
      const until = landed.get(o.key)
      const source = cache.ask(o.key, asker, (f) => {
        // One flight per key: none may start while one is under way.
        expect(pending).toBeUndefined()
        started = f
      })
      // Evicted for capacity, a kept outcome may be asked again: a cache hit is allowed, not owed.
      const expected = pending
        ? "shared"
        : until !== undefined && now < until
          ? "cache-or-upstream"
          : "upstream"
      sources.push({ source, expected })
      if (expected !== "cache-or-upstream") expect(source).toBe(expected)
      expect(started !== undefined).toBe(source === "upstream")
      expect(heard.n).toBe(source === "cache" ? 1 : 0)
      if (started) flights.set(o.key, { flight: started, heard: [heard] })
      if (source === "shared") pending!.heard.push(heard)
    } else {
      const entry = flights.get(o.key)
      if (entry === undefined) continue
      flights.delete(o.key)
      entry.flight.done(o.ok ? Exit.succeed(o.key) : Exit.fail(o.key))
      entry.flight.done(Exit.fail("twice")) // a second landing is no news
      for (const h of entry.heard) expect(h.n).toBe(1)
      landed.set(o.key, entry.flight.now + (o.ok ? KEEP_OK : KEEP_FAILED))
    }
    expect(cache.size).toBeLessThanOrEqual(capacity)
  }
  return sources
}

describe("TransportCache", () => {
  it("one flight per key, every asker told once, capacity never exceeded, nothing served past its time", () =>
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 80 }), (capacity, ops) => {
        run(capacity, ops)
      })
    ))

  it("with room for every key, a kept outcome is served exactly until its time, a failure's shorter", () =>
    fc.assert(
      fc.property(fc.array(opOver(["a", "b"]), { maxLength: 40 }), (ops) => {
        for (const { source, expected } of run(2, ops))
          expect(source).toBe(expected === "cache-or-upstream" ? "cache" : expected)
      }),
      { numRuns: 300 }
    ))

  it("a failure is kept for its shorter time, an answer for its own", () => {
    const cache = new TransportCache<string, string>({ capacity: 10, keepMs })
    const ask = (key: string, now: number, outcome?: Exit.Exit<string, string>) =>
      cache.ask(key, { now, wanted: () => true, done: () => {} }, (f) => outcome && f.done(outcome))
    expect(ask("ok", 0, Exit.succeed("ok"))).toBe("upstream")
    expect(ask("failed", 0, Exit.fail("failed"))).toBe("upstream")
    expect(ask("failed", KEEP_FAILED - 1)).toBe("cache")
    expect(ask("failed", KEEP_FAILED, Exit.fail("failed"))).toBe("upstream")
    expect(ask("ok", KEEP_OK - 1)).toBe("cache")
    expect(ask("ok", KEEP_OK, Exit.succeed("ok"))).toBe("upstream")
  })

  it("a flight's outcome counts its age from when it landed when its starter says so", () => {
    const cache = new TransportCache<string, string>({ capacity: 10, keepMs })
    const served: Array<string> = []
    const asker = (now: number) => ({
      now,
      wanted: () => true,
      done: (e: Exit.Exit<string, string>) => void (Exit.isSuccess(e) && served.push(e.value))
    })
    cache.ask("k", asker(0), (f) => f.land(Exit.succeed("v"), 500))
    expect(cache.ask("k", asker(KEEP_OK + 499), () => {})).toBe("cache")
    expect(cache.ask("k", asker(KEEP_OK + 500), () => {})).toBe("upstream")
    expect(served).toEqual(["v", "v"])
  })

  it.effect("the Effect door keeps each answer for its own time, counted from when it landed", () =>
    Effect.gen(function* () {
      let runs = 0
      // "down.example" fails (an answer saying so), kept 1 minute; others 1 hour. Each lookup takes 5 s.
      const cache = yield* makeTransportCache(
        "test",
        String,
        String,
        (domain: string) =>
          Effect.sync(() => runs++).pipe(
            Effect.zipRight(Effect.sleep("5 seconds")),
            Effect.as(domain.startsWith("down") ? "unknown" : "registered")
          ),
        { capacity: 10, ttlMs: (answer) => (answer === "unknown" ? 60_000 : 3_600_000) }
      )
      const ask = (domain: string) =>
        Effect.gen(function* () {
          const fiber = yield* Effect.fork(cache.get(domain))
          yield* TestClock.adjust("5 seconds")
          return yield* fiber
        })
      yield* ask("down.example")
      yield* ask("up.example")
      expect(runs).toBe(2)
      yield* TestClock.adjust("54 seconds") // 59 s after the failure landed: still kept
      yield* ask("down.example")
      expect(runs).toBe(2)
      yield* TestClock.adjust("1 seconds")
      yield* ask("down.example")
      yield* ask("up.example")
      expect(runs).toBe(3)
    })
  )
})
