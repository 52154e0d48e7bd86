/** Shared, briefly cached results: one run per key at a time, reused for the TTL. */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, TestClock } from "effect"
import { makeShared } from "../../src/scan/Shared.ts"

/** A shared run per key that waits for `gate`, its result the key and the count of runs so far. */
const gated = Effect.gen(function* () {
  let runs = 0
  const gate = yield* Deferred.make<void>()
  const shared = makeShared((key) => Effect.as(Deferred.await(gate), `${key}#${++runs}`), {
    ttlMs: 1_000,
    size: 10,
    scope: yield* Effect.scope
  })
  return { gate, shared }
})

describe("makeShared", () => {
  it.scoped("concurrent requests share one run; a finished one is reused for the TTL, then run again", () =>
    Effect.gen(function* () {
      const { gate, shared } = yield* gated
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

  it.scoped("a typed request is told apart by its keyText: equal texts share one run and one entry", () =>
    Effect.gen(function* () {
      const ran: Array<string> = []
      const shared = makeShared(
        (request: { readonly domain: string; readonly names: ReadonlyArray<string> }) =>
          Effect.sync(() => {
            ran.push(`${request.domain} ${request.names.join(",")}`)
            return ran.length
          }),
        {
          ttlMs: 1_000,
          size: 10,
          scope: yield* Effect.scope,
          keyText: ({ domain, names }) => `${domain} ${[...names].sort().join(",")}`
        }
      )
      expect(yield* shared.get({ domain: "a.com", names: ["x", "y"] })).toBe(1)
      expect(yield* shared.get({ domain: "a.com", names: ["y", "x"] })).toBe(1)
      expect(yield* shared.get({ domain: "a.com", names: [] })).toBe(2)
      expect(ran).toEqual(["a.com x,y", "a.com "])
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

  it.scoped(
    "says where a result came from, charges beforeRun only to runs, and shares a failure without keeping it",
    () =>
      Effect.gen(function* () {
        let runs = 0
        let charged = 0
        const gate = yield* Deferred.make<void>()
        const shared = makeShared(
          (key) =>
            Effect.zipRight(
              Deferred.await(gate),
              key === "bad" ? Effect.fail(`bad#${++runs}`) : Effect.succeed(`${key}#${++runs}`)
            ),
          { ttlMs: 1_000, size: 10, scope: yield* Effect.scope }
        )
        const charge = Effect.sync(() => void charged++)
        const both = yield* Effect.forkScoped(
          Effect.all([shared.share("a", charge), shared.share("a", charge)], { concurrency: 2 })
        )
        yield* Effect.yieldNow()
        yield* Deferred.succeed(gate, undefined)
        expect(yield* Fiber.join(both)).toEqual([
          { result: "a#1", source: "ran" },
          { result: "a#1", source: "joined" }
        ])
        expect(yield* shared.share("a", charge)).toEqual({ result: "a#1", source: "cache" })
        expect(charged).toBe(1)
        // a refused charge starts nothing
        expect(yield* Effect.flip(shared.share("c", Effect.fail("refused")))).toBe("refused")
        expect(runs).toBe(1)
        // a failure reaches its waiter and is not kept: the next request runs again
        expect(yield* Effect.flip(shared.share("bad"))).toBe("bad#2")
        expect(yield* Effect.flip(shared.share("bad"))).toBe("bad#3")
      })
  )

  it.scoped("a run given up by its last waiter is started afresh by the next request", () =>
    Effect.gen(function* () {
      const { gate, shared } = yield* gated
      const first = yield* Effect.forkScoped(shared.share("a"))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      const second = yield* Effect.forkScoped(shared.share("a"))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(second)).toEqual({ result: "a#2", source: "ran" })
    })
  )

  it.scoped("at most `size` results are kept, the least recently used dropped first", () =>
    Effect.gen(function* () {
      let runs = 0
      const shared = makeShared((key) => Effect.sync(() => `${key}#${++runs}`), {
        ttlMs: 1_000,
        size: 2,
        scope: yield* Effect.scope
      })
      for (const key of ["a", "b", "a", "c"]) yield* shared.get(key)
      // "a" was read after "b", so "b" went when "c" came
      expect(yield* shared.share("a")).toEqual({ result: "a#1", source: "cache" })
      expect(yield* shared.share("b")).toEqual({ result: "b#4", source: "ran" })
    })
  )
})
