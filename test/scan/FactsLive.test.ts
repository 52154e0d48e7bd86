import { describe, expect, it } from "@effect/vitest"
import { Either, Effect, Fiber, Layer, Schema } from "effect"
import fc from "fast-check"
import { type CheckTiming, define, needAll, type ScanTrace } from "../../src/kernel/Check.ts"
import { Fact, Facts } from "../../src/kernel/Facts.ts"
import { Resolver, type FakeZone } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { CROWDED_ZONE_IN_FLIGHT, SWEEP_QUESTIONS_IN_FLIGHT } from "../../src/scan/SweepScheduler.ts"
import { scan, withFacts } from "../../src/scan/Scanner.ts"
import { criticalPath, unionLength } from "../../src/scan/Timing.ts"
import { fakeNet } from "../checks/facts.ts"
import { runs } from "../support/runs.ts"
import { domain } from "../support/domain.ts"

const zone: FakeZone = {
  "example.com TXT": ["v=spf1 mx -all"],
  "example.com MX": ["10 mx1.example.com."],
  "mx1.example.com A": ["192.0.2.1"],
  "broken.com MX": "SERVFAIL",
  "example.com SOA": ["ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300"]
}

/** The fakes, with every question, fetch and probe the services are asked written down. */
const counted = () => {
  const asked: Array<string> = []
  const note = <A, E>(what: string, e: Effect.Effect<A, E>) => Effect.suspend(() => (asked.push(what), e))
  const layer = Layer.mergeAll(
    Layer.effect(
      Resolver,
      Effect.map(Resolver, (r) =>
        Resolver.make(
          resolverOver((n, t, o, question) => {
            asked.push(`${n} ${t}`)
            r.ask(n, t, o, question)
          }, r.upstreams)
        )
      )
    ),
    Layer.effect(
      Web,
      Effect.map(Web, (w) => Web.make({ ...w, get: (url, o) => note(`GET ${url}`, w.get(url, o)) }))
    ),
    Layer.effect(
      Smtp,
      Effect.map(Smtp, (s) => Smtp.make({ ...s, probe: (h, a) => note(`SMTP ${h} ${a}`, s.probe(h, a)) }))
    )
  ).pipe(Layer.provideMerge(fakeNet({ zone, web: (url) => ({ status: 200, headers: { "x-url": url } }) })))
  return { asked, layer }
}

/**
 * The fakes behind a resolver that answers every question `delayMs` later (real timers), so that
 * a window of questions in flight can be seen: what was asked, and the most in flight at once.
 */
const slowResolver = (fakeZone: FakeZone, delayMs: number) => {
  const seen = { asked: [] as Array<string>, inFlight: 0, peak: 0 }
  const layer = Layer.effect(
    Resolver,
    Effect.map(Resolver, (r) =>
      Resolver.make(
        resolverOver((n, t, o, question) => {
          seen.asked.push(`${n} ${t}`)
          seen.peak = Math.max(seen.peak, ++seen.inFlight)
          setTimeout(() => {
            seen.inFlight--
            r.ask(n, t, o, question)
          }, delayMs)
        }, r.upstreams)
      )
    )
  ).pipe(Layer.provideMerge(fakeNet({ zone: fakeZone })))
  return { seen, layer }
}

const once = (asked: ReadonlyArray<string>) => asked.length === new Set(asked).size

describe("Facts of one scan", () => {
  it.effect("ask each question once, however often and concurrently it is read", () => {
    const { asked, layer } = counted()
    return withFacts(
      domain("Example.COM."),
      Effect.gen(function* () {
        const facts = yield* Facts
        expect(facts.domain).toBe("example.com")
        const reads: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          facts.txt("example.com"),
          facts.txt("EXAMPLE.com."),
          facts.mx("example.com"),
          facts.addresses("mx1.example.com"),
          facts.addresses("mx1.example.com"),
          facts.fetch("https://example.com/", { timeoutMs: 100 }),
          facts.fetch("https://example.com/", { timeoutMs: 900 }),
          facts.probe("mx1.example.com", "192.0.2.1"),
          facts.probe("MX1.example.com.", "192.0.2.1")
        ]
        yield* Effect.all(
          reads.map((r) => Effect.either(r)),
          { concurrency: "unbounded" }
        )
        yield* Effect.all(reads.map((r) => Effect.either(r)))
        expect(once(asked)).toBe(true)
        expect(asked).toContain("GET https://example.com/")
        expect(asked).toContain("SMTP mx1.example.com 192.0.2.1")
      })
    ).pipe(Effect.provide(layer))
  })

  it.effect("a DNS question with the CD bit is a question of its own", () => {
    const { asked, layer } = counted()
    return withFacts(
      domain("example.com"),
      Effect.gen(function* () {
        const facts = yield* Facts
        yield* facts.query("example.com", "TXT")
        yield* facts.query("example.com", "TXT", { checkingDisabled: true })
        expect(asked.filter((q) => q === "example.com TXT")).toHaveLength(2)
      })
    ).pipe(Effect.provide(layer))
  })

  it.effect("memoise failures too: a SERVFAIL is asked once and stays a DnsError", () => {
    const { asked, layer } = counted()
    return withFacts(
      domain("broken.com"),
      Effect.gen(function* () {
        const facts = yield* Facts
        const a = yield* Effect.either(facts.mx("broken.com"))
        const b = yield* Effect.either(facts.mx("broken.com"))
        expect([a._tag, b._tag]).toEqual(["Left", "Left"])
        expect(asked.filter((q) => q === "broken.com MX")).toHaveLength(1)
      })
    ).pipe(Effect.provide(layer))
  })

  it.live(
    "queryEach: a fan in order, failures kept, shared with single questions, `concurrency` in flight",
    () => {
      const { seen, layer: slow } = slowResolver(zone, 5)
      const asked = seen.asked
      return withFacts(
        domain("example.com"),
        Effect.gen(function* () {
          const facts = yield* Facts
          const names = [
            "example.com",
            "broken.com",
            ...Array.from({ length: 10 }, (_, i) => `n${i}.example.com`)
          ]
          const [fan] = yield* Effect.all(
            [
              facts.queryEach(
                names.map((name) => ({ name, type: name === "broken.com" ? "MX" : "TXT" })),
                { concurrency: 3 }
              ),
              facts.txt("example.com")
            ],
            { concurrency: 2 }
          )
          expect(fan).toHaveLength(names.length)
          expect(fan[0]!._tag === "Right" && fan[0]!.right.answers[0]?.text).toContain("v=spf1")
          expect(fan[1]!._tag === "Left" && fan[1]!.left.reason).toBe("servfail")
          expect(fan.slice(2).every((r) => r._tag === "Right" && r.right.outcome === "nxdomain")).toBe(true)
          expect(seen.peak).toBeLessThanOrEqual(3)
          // Asked once each, the single TXT question included.
          expect(asked).toHaveLength(names.length)
          expect(once(asked)).toBe(true)
        })
      ).pipe(Effect.provide(slow))
    }
  )

  it.live(
    "sweep: `keep` of each outcome in order, `concurrency` in flight, the scan's memo read but not filled",
    () => {
      const { seen, layer: slow } = slowResolver({ ...zone, "broken.com TXT": "SERVFAIL" }, 5)
      const asked = seen.asked
      return withFacts(
        domain("example.com"),
        Effect.gen(function* () {
          const facts = yield* Facts
          // asked by the scan before the sweep: the sweep reads the memo's answer
          yield* facts.txt("example.com")
          const names = [
            "EXAMPLE.com.",
            "broken.com",
            ...Array.from({ length: 8 }, (_, i) => `s${i}.example.com`)
          ]
          const kept = yield* facts.sweep(
            "TXT",
            names,
            (outcome, i) =>
              Either.isRight(outcome)
                ? `${i} ${outcome.right.outcome} ${outcome.right.answers.length}`
                : `${i} ${outcome.left.reason} ${outcome.left.name}`,
            { concurrency: 3 }
          )
          expect(kept).toEqual([
            "0 answer 1",
            "1 servfail broken.com",
            ...Array.from({ length: 8 }, (_, i) => `${i + 2} nxdomain 0`)
          ])
          expect(seen.peak).toBeLessThanOrEqual(3)
          // example.com TXT once (the memo's); each swept name once
          expect(asked).toHaveLength(names.length)
          expect(once(asked)).toBe(true)
          // not memoised: asking a swept name again asks the resolver again
          yield* facts.txt("s0.example.com")
          expect(asked.filter((a) => a === "s0.example.com TXT")).toHaveLength(2)
        })
      ).pipe(Effect.provide(slow))
    }
  )

  it.live(
    "the sweeps of all scans together keep at most SWEEP_QUESTIONS_IN_FLIGHT questions in flight",
    () => {
      const { seen, layer: slow } = slowResolver(zone, 2)
      // more scans, each with a wider window, than the slots hold
      const scans = Math.ceil((2 * SWEEP_QUESTIONS_IN_FLIGHT) / 64)
      const names = Array.from({ length: 100 }, (_, i) => `s${i}.example.com`)
      return Effect.gen(function* () {
        const swept = yield* Effect.all(
          Array.from({ length: scans }, (_, n) =>
            withFacts(
              domain(`scan${n}.example`),
              Effect.flatMap(Facts, (facts) =>
                facts.sweep("TXT", names, (o) => Either.isRight(o) && o.right.outcome === "nxdomain", {
                  concurrency: 64
                })
              )
            )
          ),
          { concurrency: "unbounded" }
        )
        expect(seen.peak).toBe(SWEEP_QUESTIONS_IN_FLIGHT)
        expect(swept.every((kept) => kept.length === names.length && kept.every((k) => k === true))).toBe(
          true
        )
        // every slot given back: a sweep alone now has its whole window
        seen.peak = 0
        yield* withFacts(
          domain("alone.example"),
          Effect.flatMap(Facts, (facts) => facts.sweep("TXT", names, () => null, { concurrency: 64 }))
        )
        expect(seen.peak).toBe(64)
      }).pipe(Effect.provide(slow))
    }
  )

  it.live(
    "sweeps beyond the shared room run in their scans' order: once started, each ends within a few rounds of the room",
    () => {
      // Every question answered 1 ms later, counted as it is: "when" below is in answers given, not time.
      let answered = 0
      const timed = Layer.effect(
        Resolver,
        Effect.map(Resolver, (r) =>
          Resolver.make(
            resolverOver((n, t, o, question) => {
              const at = question.now
              setTimeout(
                () =>
                  r.ask(n, t, o, {
                    now: at,
                    wanted: () => question.wanted(),
                    done: (outcome) => {
                      answered++
                      question.done(outcome)
                    }
                  }),
                1
              )
            }, r.upstreams)
          )
        )
      ).pipe(Layer.provideMerge(fakeNet({ zone })))
      // Enough sweeps that the room, not the fake resolver, is the bound: ~39 rounds of the room.
      const scans = 1000
      const names = Array.from({ length: 40 }, (_, i) => `s${i}`)
      const spans: Array<{ readonly scan: number; first: number; last: number }> = []
      const finished: Array<number> = []
      return Effect.gen(function* () {
        const fibers = []
        for (let n = 0; n < scans; n++) {
          const span = { scan: n, first: -1, last: -1 }
          spans.push(span)
          // Forked in order, so the scans start (and take their tickets) in order.
          fibers.push(
            yield* Effect.fork(
              withFacts(
                domain(`scan${n}.example`),
                Effect.flatMap(Facts, (facts) =>
                  facts.sweep(
                    "TXT",
                    names.map((s) => `${s}._domainkey.scan${n}.example`),
                    (o) => {
                      if (span.first < 0) span.first = answered
                      return Either.isRight(o) && o.right.outcome === "nxdomain"
                    },
                    { concurrency: 64 }
                  )
                )
              ).pipe(
                Effect.tap(() =>
                  Effect.sync(() => {
                    span.last = answered
                    finished.push(n)
                  })
                )
              )
            )
          )
        }
        const kept = yield* Effect.all(fibers.map(Fiber.join))
        expect(kept.every((k) => k.length === names.length && k.every((x) => x === true))).toBe(true)
        const total = answered
        expect(total).toBe(scans * names.length)
        // In order: a scan finishes after at most the sweeps the room holds at once of younger scans.
        const active = SWEEP_QUESTIONS_IN_FLIGHT / CROWDED_ZONE_IN_FLIGHT
        const overtaken = finished.map((scan, position) => Math.max(0, scan - position))
        expect(Math.max(...overtaken)).toBeLessThanOrEqual(active)
        // Once started, a sweep of 40 questions, 8 at a time, ends within a few turns of the room (all
        // advancing together, every sweep spanned nearly all 40,000 answers).
        const longest = Math.max(...spans.map((s) => s.last - s.first))
        expect(longest / total).toBeLessThan(0.25)
      }).pipe(Effect.provide(timed))
    },
    60_000
  )

  it.effect("closing the scan's scope tells its unanswered questions that nobody waits", () => {
    const pending: Array<{ wanted: () => boolean }> = []
    const silent = Layer.effect(
      Resolver,
      Effect.map(Resolver, (r) =>
        Resolver.make(resolverOver((_n, _t, _o, question) => void pending.push(question), r.upstreams))
      )
    ).pipe(Layer.provideMerge(fakeNet({ zone })))
    return Effect.gen(function* () {
      yield* withFacts(
        domain("example.com"),
        Effect.flatMap(Facts, (facts) =>
          Effect.zipRight(Effect.fork(facts.txt("example.com")), Effect.yieldNow())
        )
      )
      expect(pending).toHaveLength(1)
      expect(pending[0]!.wanted()).toBe(false)
    }).pipe(Effect.provide(silent))
  })

  it.effect("prefetch and startFetch start the work at once, and later reads share it", () => {
    const { asked, layer } = counted()
    return withFacts(
      domain("example.com"),
      Effect.gen(function* () {
        const facts = yield* Facts
        yield* facts.prefetch([
          { name: "example.com", type: "TXT" },
          { name: "EXAMPLE.com.", type: "MX" },
          { name: "broken.com", type: "MX" }
        ])
        const fetching = yield* facts.startFetch("https://example.com/", { timeoutMs: 100 })
        // asked before anything was awaited (the fetch in a fiber of the scan's scope)
        expect(asked).toEqual(["example.com TXT", "example.com MX", "broken.com MX"])
        yield* Effect.yieldNow()
        expect(asked).toEqual([
          "example.com TXT",
          "example.com MX",
          "broken.com MX",
          "GET https://example.com/"
        ])
        expect(yield* facts.txt("example.com")).toEqual(["v=spf1 mx -all"])
        expect(yield* facts.mx("example.com")).toEqual([{ priority: 10, exchange: "mx1.example.com" }])
        expect((yield* Effect.flip(facts.mx("broken.com"))).reason).toBe("servfail")
        const [started, fetched] = [yield* fetching, yield* facts.fetch("https://example.com/")]
        expect(started).toBe(fetched)
        expect(asked.length).toBe(4)
      })
    ).pipe(Effect.provide(layer))
  })

  it.effect("negative answers of one scan share their equal authority records, and read the same", () => {
    const { layer } = counted()
    const names = ["s1._domainkey.example.com", "s2._domainkey.example.com"]
    return Effect.gen(function* () {
      const [x, y] = yield* withFacts(
        domain("example.com"),
        Effect.flatMap(Facts, (facts) =>
          facts.queryEach(
            names.map((name) => ({ name, type: "TXT" as const })),
            { concurrency: 2 }
          )
        )
      ).pipe(Effect.map((answers) => answers.map((a) => Either.getOrThrow(a))))
      expect([x!.outcome, y!.outcome]).toEqual(["nxdomain", "nxdomain"])
      expect(x!.authority.map((r) => r.type)).toEqual(["SOA"])
      // one instance of the zone's SOA for both answers, equal to what the resolver says
      expect(y!.authority[0]).toBe(x!.authority[0])
      const direct = yield* Effect.flatMap(Resolver, (r) => r.query(names[1]!, "TXT"))
      expect(y!.authority).toEqual(direct.authority)
      expect(direct.authority[0]).not.toBe(x!.authority[0])
    }).pipe(Effect.provide(layer))
  })

  it.effect("needAll reads each check once, in one fiber, and records every edge", () => {
    let runs = 0
    const counting = (id: string) =>
      define(
        { id, title: id, category: "dns", result: Schema.String },
        {
          gather: Effect.sync(() => (runs++, id)),
          analyse: (x: string) => x
        }
      )
    const [a, b] = [counting("a"), counting("b")]
    const both = define(
      { id: "both", title: "both", category: "dns", result: Schema.String },
      {
        gather: Effect.map(needAll({ a, b, again: a }), ({ a, b, again }) => `${a}${b}${again}`),
        analyse: (x: string) => x
      }
    )
    return Effect.gen(function* () {
      const result = yield* scan(domain("example.com"), { checks: [both] })
      expect(result.checks.both).toMatchObject({ status: "done", result: "aba", needs: ["a", "b"] })
      expect(runs).toBe(2)
    }).pipe(Effect.provide(counted().layer))
  })

  it.effect("derived facts are computed once per scan, keyed by the Fact itself", () => {
    let runs = 0
    const Probe = Fact.define(
      "test.probe",
      Effect.flatMap(Facts, (f) => Effect.sync(() => (runs++, f.domain)))
    )
    const Twin = Fact.define("test.probe", Probe.compute)
    return withFacts(
      domain("example.com"),
      Effect.gen(function* () {
        const facts = yield* Facts
        const [x, y] = yield* Effect.all([facts.get(Probe), facts.get(Probe)], { concurrency: 2 })
        expect([x, y, runs]).toEqual(["example.com", "example.com", 1])
        yield* facts.get(Twin)
        expect(runs).toBe(2)
      })
    ).pipe(Effect.provide(counted().layer))
  })
})

// Times start at 1: a check's `endMs` of 0 means "still running" (it counts until now), so an
// interval ending at 0 is not a finished check, and a wait on it could end before it does.
const interval = fc
  .tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }))
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)

describe("critical path", () => {
  it("the union of intervals is at most their sum and at least the longest", () =>
    fc.assert(
      fc.property(fc.array(interval), (xs) => {
        const u = unionLength(xs)
        const lengths = xs.map(([a, b]) => b - a)
        expect(u).toBeLessThanOrEqual(lengths.reduce((s, n) => s + n, 0))
        expect(u).toBeGreaterThanOrEqual(Math.max(0, ...lengths))
      })
    ))

  const t = (startMs: number, endMs: number, waits: Array<readonly [string, number, number]> = []) =>
    ({ startMs, endMs, needs: new Set(waits.map(([id]) => id)), waits }) satisfies CheckTiming

  it("follows the chain of waits, counting only the work done after each result arrived", () => {
    // b works 0-10, waits for a until 40, works 40-60; c works alone 0-30.
    const trace: ScanTrace = new Map([
      ["a", t(0, 40)],
      ["b", t(0, 60, [["a", 10, 40]])],
      ["c", t(0, 30)]
    ])
    expect(criticalPath(trace, 60)).toBe(60)
    // b's 10 ms before the wait ran beside a: not on the chain.
    trace.set("a", t(0, 30))
    trace.set("b", t(0, 40, [["a", 5, 30]]))
    expect(criticalPath(trace, 40)).toBe(40)
  })

  it("never exceeds the wall time, however the checks waited on each other", () =>
    fc.assert(
      // many runs: the case that once slipped through (a check ending at 0) was rare
      fc.property(
        fc.array(fc.tuple(interval, fc.option(fc.tuple(fc.nat(20), interval))), { maxLength: 20 }),
        (runs) => {
          const trace: ScanTrace = new Map(
            runs.map(([[s, e], dep], i) => {
              const waits: Array<readonly [string, number, number]> = []
              if (dep && i > 0) {
                const [on, [a, b]] = dep
                const target = runs[on % i]![0]
                // a wait lies inside the check's run and ends no sooner than the awaited check
                const from = Math.min(Math.max(a, s), e)
                const to = Math.min(Math.max(b, from, target[1]), Math.max(e, target[1]))
                if (to <= e) waits.push([`c${on % i}`, from, to])
              }
              return [`c${i}`, t(s, e, waits)] as const
            })
          )
          const wall = Math.max(0, ...runs.map(([[, e]]) => e))
          const cp = criticalPath(trace, wall)
          expect(cp).toBeGreaterThanOrEqual(0)
          expect(cp).toBeLessThanOrEqual(wall)
        }
      ),
      { numRuns: runs(20_000) }
    ))
})
