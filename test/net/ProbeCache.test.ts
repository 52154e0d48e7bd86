import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, FiberRef, TestClock } from "effect"
import { makeAddressProbeCache, makeProbeCache, type ProbeKey } from "../../src/net/ProbeCache.ts"
import { CurrentQueueClock, QueueClock } from "../../src/bounds/QueueClock.ts"

const mx = (sni: string, address = "192.0.2.25"): ProbeKey => ({ address, port: 25, sni })

/** A cache whose probe counts its runs and answers with the key it was asked. */
const counting = (options = { ttlMs: 600_000, capacity: 100 }, delay: Effect.Effect<void> = Effect.void) =>
  Effect.gen(function* () {
    const runs: Array<ProbeKey> = []
    const cache = yield* makeProbeCache(
      "test",
      (key) =>
        Effect.sync(() => runs.push(key)).pipe(
          Effect.zipRight(delay),
          Effect.as(`${key.address}:${key.port} ${key.sni}`)
        ),
      options
    )
    return { cache, runs }
  })

describe("makeProbeCache", () => {
  // Real time: the queue clock reads performance.now (bounds/QueueClock.ts). The waits are seconds, not
  // milliseconds, so that a loaded machine's late wake-ups (tens to hundreds of ms) stay well inside
  // the margins that tell the time queued from the time worked.
  it.live(
    "a caller that joins another scan's probe counts the time the probe queued, not the time it worked",
    () =>
      Effect.gen(function* () {
        // The probe waits 1.5 s for a permit (as Permits does: on the current fiber's clock), then
        // works 2 s.
        const cache = yield* makeProbeCache(
          "test",
          () =>
            Effect.gen(function* () {
              const clock = yield* FiberRef.get(CurrentQueueClock)
              clock?.enter()
              yield* Effect.sleep(1_500)
              clock?.leave()
              yield* Effect.sleep(2_000)
              return "facts"
            }),
          { ttlMs: 600_000, capacity: 100 }
        )
        const prober = new QueueClock()
        const joiner = new QueueClock()
        const first = yield* Effect.fork(
          Effect.locally(cache.get(mx("mx.example.net")), CurrentQueueClock, prober)
        )
        yield* Effect.sleep(500)
        expect(yield* Effect.locally(cache.get(mx("mx.example.net")), CurrentQueueClock, joiner)).toBe(
          "facts"
        )
        yield* Fiber.join(first)
        // The prober's own wait for its permit counts on its scan.
        expect(prober.ms()).toBeGreaterThanOrEqual(1_450)
        expect(prober.ms()).toBeLessThan(2_500)
        // The joiner waited ~3 s, of which ~1 s while the probe queued.
        expect(joiner.ms()).toBeGreaterThanOrEqual(900)
        expect(joiner.ms()).toBeLessThan(2_000)
        // Remembered now: asking again is no wait.
        const later = new QueueClock()
        yield* Effect.locally(cache.get(mx("mx.example.net")), CurrentQueueClock, later)
        expect(later.ms()).toBe(0)
      })
  )

  it.effect("50 concurrent callers for one key share one probe", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { cache, runs } = yield* counting(undefined, Deferred.await(gate))
      const all = yield* Effect.fork(
        Effect.forEach(
          Array.from({ length: 50 }, () => mx("mx.example.net")),
          (key) => cache.get(key),
          { concurrency: "unbounded" }
        )
      )
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      const results = yield* Fiber.join(all)
      expect(runs).toHaveLength(1)
      expect(new Set(results)).toEqual(new Set(["192.0.2.25:25 mx.example.net"]))
    })
  )

  it.effect("a result for one SNI name never answers another; names compare as DNS names", () =>
    Effect.gen(function* () {
      const { cache, runs } = yield* counting()
      expect(yield* cache.get(mx("mx.a.example"))).toBe("192.0.2.25:25 mx.a.example")
      expect(yield* cache.get(mx("mx.b.example"))).toBe("192.0.2.25:25 mx.b.example")
      expect(yield* cache.get(mx("MX.A.example."))).toBe("192.0.2.25:25 mx.a.example")
      expect(yield* cache.get({ ...mx("mx.a.example"), port: 465 })).toBe("192.0.2.25:465 mx.a.example")
      expect(yield* cache.get(mx("mx.a.example", "192.0.2.26"))).toBe("192.0.2.26:25 mx.a.example")
      expect(runs).toHaveLength(4)
    })
  )

  it.effect("a result is served for the TTL and probed again after it", () =>
    Effect.gen(function* () {
      const { cache, runs } = yield* counting({ ttlMs: 600_000, capacity: 100 })
      yield* cache.get(mx("mx.example.net"))
      yield* TestClock.adjust("599 seconds")
      yield* cache.get(mx("mx.example.net"))
      expect(runs).toHaveLength(1)
      yield* TestClock.adjust("2 seconds")
      yield* cache.get(mx("mx.example.net"))
      expect(runs).toHaveLength(2)
    })
  )

  it.effect("holds at most its capacity: the least recently used is probed again", () =>
    Effect.gen(function* () {
      const { cache, runs } = yield* counting({ ttlMs: 600_000, capacity: 3 })
      for (const name of ["a", "b", "c", "d"]) yield* cache.get(mx(`mx.${name}.example`))
      yield* cache.get(mx("mx.d.example"))
      expect(runs).toHaveLength(4)
      yield* cache.get(mx("mx.a.example"))
      expect(runs).toHaveLength(5)
    })
  )

  it.effect("callers sharing a probe survive the interruption of the caller that started it", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { cache, runs } = yield* counting(undefined, Deferred.await(gate))
      const first = yield* Effect.fork(cache.get(mx("mx.example.net")))
      yield* Effect.yieldNow()
      const second = yield* Effect.fork(cache.get(mx("mx.example.net")))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(second)).toBe("192.0.2.25:25 mx.example.net")
      expect(runs).toHaveLength(2)
    })
  )
})

describe("makeAddressProbeCache", () => {
  it.effect("one probe per address and port, made under the name of the asker that starts it", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const runs: Array<ProbeKey> = []
      const cache = yield* makeAddressProbeCache(
        "test",
        (key) =>
          Effect.sync(() => runs.push(key)).pipe(
            Effect.zipRight(Deferred.await(gate)),
            Effect.as(`${key.address}:${key.port} ${key.sni}`)
          ),
        { ttlMs: 600_000, capacity: 100 }
      )
      const all = yield* Effect.fork(
        Effect.forEach(["WWW.A.example.", "a.example", "b.example"], (name) => cache.get(mx(name)), {
          concurrency: "unbounded"
        })
      )
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      // Every name at the address gets the probe of the first, which names it (as DNS names compare).
      expect(yield* Fiber.join(all)).toEqual(Array(3).fill("192.0.2.25:25 www.a.example"))
      expect(runs).toEqual([mx("www.a.example")])
      // Remembered for the TTL, for any name; another address or port is another probe.
      expect(yield* cache.get(mx("c.example"))).toBe("192.0.2.25:25 www.a.example")
      expect(yield* cache.get({ ...mx("c.example"), port: 465 })).toBe("192.0.2.25:465 c.example")
      expect(yield* cache.get(mx("c.example", "192.0.2.26"))).toBe("192.0.2.26:25 c.example")
      expect(runs).toHaveLength(3)
    })
  )
})
