import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Schema, TestClock } from "effect"
import { define, need } from "../../src/kernel/Check.ts"
import { Facts } from "../../src/kernel/Facts.ts"
import { Permits } from "../../src/bounds/Permits.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { ScanHistory } from "../../src/scan/ScanHistory.ts"
import { Scans } from "../../src/scan/Scans.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain } from "../support/domain.ts"

/** The fakes, with every DNS question counted by "name TYPE". */
const counted = (zone: Record<string, ReadonlyArray<string>>) => {
  const asked = new Map<string, number>()
  const layer = Layer.effect(
    Resolver,
    Effect.map(Resolver, (inner) =>
      Resolver.make(
        resolverOver((name, type, options, question) => {
          const key = `${name} ${type}`
          asked.set(key, (asked.get(key) ?? 0) + 1)
          inner.ask(name, type, options, question)
        }, inner.upstreams)
      )
    )
  ).pipe(Layer.provideMerge(fakeNet({ zone, env: { SCAN_DEADLINE_MS: "1000" } })))
  return { asked, layer }
}

const Txt = Schema.Array(Schema.String)

const spfTxt = define(
  { id: "a", title: "A", category: "email", result: Txt },
  {
    gather: Effect.flatMap(Facts, (f) => Effect.orElseSucceed(f.txt(f.domain), () => ["unknown"])),
    analyse: (records: ReadonlyArray<string>) => records
  }
)

const alsoTxt = define(
  { id: "b", title: "B", category: "email", result: Schema.Int },
  {
    gather: Effect.gen(function* () {
      const facts = yield* Facts
      const mine = yield* Effect.orElseSucceed(facts.txt(facts.domain), () => [])
      const theirs = yield* need(spfTxt)
      return mine.length + theirs.length
    }),
    analyse: (n) => n
  }
)

const never = define(
  { id: "slow", title: "Slow", category: "dns", result: Schema.Int },
  {
    timeoutMs: 50,
    gather: Effect.never,
    analyse: (n: number) => n
  }
)

describe("Scanner", () => {
  it.effect("asks each question once however many checks need it, and records the graph's edges", () => {
    const { asked, layer } = counted({ "example.com TXT": ["v=spf1 -all"] })
    return Effect.gen(function* () {
      const result = yield* scan(domain("Example.COM."), { checks: [spfTxt, alsoTxt] })
      expect(result.domain).toBe("example.com")
      expect(result.checks.a).toMatchObject({ status: "done", result: ["v=spf1 -all"] })
      expect(result.checks.b).toMatchObject({ status: "done", result: 2, needs: ["a"] })
      expect(asked.get("example.com TXT")).toBe(1)
      expect(result.cached).toBe(false)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a check past its timeout is unknown with the reason; the rest of the scan completes", () => {
    const { layer } = counted({ "example.com TXT": ["x"] })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(scan(domain("example.com"), { checks: [spfTxt, never] }))
      yield* TestClock.adjust(60)
      const result = yield* Fiber.join(fiber)
      expect(result.checks.a.status).toBe("done")
      expect(result.checks.slow).toMatchObject({ status: "unknown", result: null })
      expect(result.checks.slow.reason).toMatch(/did not finish within 50 ms/)
    }).pipe(Effect.provide(layer))
  })

  it.effect("the scan's deadline bounds every check", () => {
    const { layer } = counted({})
    return Effect.gen(function* () {
      const slow = { ...never, timeoutMs: 60_000 }
      const fiber = yield* Effect.fork(scan(domain("example.com"), { checks: [slow], deadlineMs: 200 }))
      yield* TestClock.adjust(250)
      const result = yield* Fiber.join(fiber)
      expect(result.checks.slow.reason).toMatch(/within 200 ms/)
      expect(result.deadlineMs).toBe(200)
    }).pipe(Effect.provide(layer))
  })

  it.effect("interrupting a scan interrupts the work its checks started", () =>
    Effect.gen(function* () {
      const started = yield* Deferred.make<void>()
      const stopped = yield* Deferred.make<void>()
      const hanging = define(
        { id: "hang", title: "Hang", category: "dns", result: Schema.Int },
        {
          gather: Deferred.succeed(started, undefined).pipe(
            Effect.zipRight(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(stopped, undefined))
          ),
          analyse: (n: number) => n
        }
      )
      const fiber = yield* Effect.fork(scan(domain("example.com"), { checks: [hanging] }))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      expect(yield* Deferred.isDone(stopped)).toBe(true)
    }).pipe(Effect.provide(fakeNet()))
  )

  // Real time: the queue is measured by the clock the permits wait on (bounds/QueueClock.ts).
  it.live("time queued for our own permits does not count against a check's budget", () => {
    const { layer } = counted({})
    const permits = new Permits(1)
    const queuedCheck = define(
      { id: "queued", title: "Queued", category: "dns", result: Schema.Int },
      {
        timeoutMs: 100,
        gather: permits.holding(Effect.succeed(1)),
        analyse: (n: number) => n
      }
    )
    const slowCheck = define(
      { ...queuedCheck, id: "slow" },
      { timeoutMs: 100, gather: Effect.as(Effect.sleep(1_000), 1), analyse: queuedCheck.analyse }
    )
    return Effect.gen(function* () {
      // Another holder keeps the only permit for 300 ms, three times the check's budget.
      const holder = yield* Effect.fork(permits.holding(Effect.sleep(300)))
      yield* Effect.yieldNow()
      const result = yield* scan(domain("example.com"), { checks: [queuedCheck, slowCheck] })
      yield* Fiber.join(holder)
      expect(result.checks.queued).toMatchObject({ status: "done", result: 1 })
      // The scan's queue extends every check's budget, but no further: slow on its own, it is unknown.
      expect(result.checks.slow).toMatchObject({ status: "unknown" })
      expect(result.checks.slow.reason).toMatch(
        /did not finish within 100 ms \(and \d+ ms queued for busy destinations\)/
      )
    }).pipe(Effect.provide(layer))
  })
})

/** A history that keeps what it is told, in memory (the app always uses ScanHistory.Live). */
const remembered = () => {
  const recorded: Array<{ domain: string; computedAt: string; cached: boolean }> = []
  const layer = Layer.succeed(ScanHistory, {
    record: (s) =>
      Effect.sync(() => void recorded.push({ domain: s.domain, computedAt: s.computedAt, cached: s.cached }))
  })
  return { recorded, layer }
}

describe("Scans", () => {
  it.effect("concurrent scans of one domain share one run; a finished one is served from cache", () => {
    const { asked, layer } = counted({ "example.com TXT": ["v=spf1 -all"] })
    const history = remembered()
    return Effect.gen(function* () {
      const scans = yield* Scans
      const [one, two] = yield* Effect.all(
        [scans.scan(domain("example.com")), scans.scan(domain("EXAMPLE.com"))],
        {
          concurrency: 2
        }
      )
      expect(one.computedAt).toBe(two.computedAt)
      const again = yield* scans.scan(domain("example.com"))
      expect(again.cached).toBe(true)
      expect(again.computedAt).toBe(one.computedAt)
      expect(asked.get("example.com TXT")).toBe(1)
      // one run, one record: neither the request that joined it nor the cached re-serve writes
      expect(history.recorded).toEqual([{ domain: "example.com", computedAt: one.computedAt, cached: false }])
    }).pipe(Effect.provide(Scans.Default), Effect.provide(Layer.merge(layer, history.layer)))
  })
})
