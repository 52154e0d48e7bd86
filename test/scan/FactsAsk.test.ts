/**
 * The Facts door for a kind of network question of its own (net/Question.ts): a question declared
 * here, in a test file, with nothing added to kernel/ or scan/, is asked through `facts.ask` over
 * the services the scan provides, memoised per scan (asked twice, run once), its failure too.
 */
import { describe, expect, it } from "@effect/vitest"
import { Data, Effect, Either } from "effect"
import fc from "fast-check"
import { Facts } from "../../src/kernel/Facts.ts"
import { Question, ScanLookup } from "../../src/net/Question.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { withFacts } from "../../src/scan/Scanner.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain } from "../support/domain.ts"
import { runs } from "../support/runs.ts"

class Refused extends Data.TaggedError("Refused")<{ readonly host: string }> {}

const zone = {
  "mx1.example.com A": ["192.0.2.1"],
  "mx1.example.com AAAA": [],
  "gone.example.com A": "SERVFAIL" as const
}

/** A made-up probe: the host's first address through the scan's look-up, counted per run. */
const counting = () => {
  const ran: Array<string> = []
  const question = Question.define({
    name: "test.firstAddress",
    key: (host: string) => host.toLowerCase(),
    run: (host: string) =>
      Effect.gen(function* () {
        ran.push(host)
        // Services the scan provides: the Resolver, and the scan's own memoised look-up.
        yield* Resolver
        const lookup = yield* ScanLookup
        const found = yield* Effect.orElseFail(lookup(host), () => new Refused({ host }))
        const first = found.v4[0]
        if (first === undefined) return yield* new Refused({ host })
        return first
      })
  })
  return { ran, question }
}

const inScan = <A, E>(effect: Effect.Effect<A, E, Facts>) =>
  withFacts(domain("example.com"), effect).pipe(Effect.provide(fakeNet({ zone })))

describe("facts.ask", () => {
  it.effect("a question asked twice, at once and after, runs once per scan", () => {
    const { ran, question } = counting()
    return inScan(
      Effect.gen(function* () {
        const facts = yield* Facts
        const [a, b] = yield* Effect.all(
          [facts.ask(question, "mx1.example.com"), facts.ask(question, "MX1.example.com")],
          {
            concurrency: "unbounded"
          }
        )
        const c = yield* facts.ask(question, "mx1.example.com")
        expect([a, b, c]).toEqual(["192.0.2.1", "192.0.2.1", "192.0.2.1"])
        expect(ran).toEqual(["mx1.example.com"])
      })
    )
  })

  it.effect("a failure is kept for the scan: asked again, it fails again without running", () => {
    const { ran, question } = counting()
    return inScan(
      Effect.gen(function* () {
        const facts = yield* Facts
        const first = yield* Effect.either(facts.ask(question, "gone.example.com"))
        const second = yield* Effect.either(facts.ask(question, "gone.example.com"))
        expect(Either.isLeft(first) && first.left).toEqual(new Refused({ host: "gone.example.com" }))
        expect(second).toEqual(first)
        expect(ran).toEqual(["gone.example.com"])
      })
    )
  })

  it.effect("each scan asks for itself: a second scan runs the question again", () => {
    const { ran, question } = counting()
    const once = inScan(Effect.flatMap(Facts, (facts) => facts.ask(question, "mx1.example.com")))
    return Effect.gen(function* () {
      yield* once
      yield* once
      expect(ran).toEqual(["mx1.example.com", "mx1.example.com"])
    })
  })

  it.effect("two kinds of question with equal keys are kept apart", () => {
    const one = counting()
    const two = counting()
    return inScan(
      Effect.gen(function* () {
        const facts = yield* Facts
        yield* facts.ask(one.question, "mx1.example.com")
        yield* facts.ask(two.question, "mx1.example.com")
        expect([one.ran, two.ran]).toEqual([["mx1.example.com"], ["mx1.example.com"]])
      })
    )
  })

  it.effect("a question beside a check composes what Facts asks, in the same memo", () => {
    let runs = 0
    const spfOf = Question.define({
      name: "test.spfOf",
      key: (name: string) => name,
      run: (name: string) =>
        Effect.flatMap(Facts, (facts) =>
          Effect.map(facts.txt(name), (txt) => (runs++, txt.filter((t) => t.startsWith("v=spf1"))))
        )
    })
    return withFacts(
      domain("example.com"),
      Effect.gen(function* () {
        const facts = yield* Facts
        expect(yield* facts.ask(spfOf, "example.com")).toEqual(["v=spf1 -all"])
        expect(yield* facts.ask(spfOf, "example.com")).toEqual(["v=spf1 -all"])
        expect(runs).toBe(1)
      })
    ).pipe(Effect.provide(fakeNet({ zone: { "example.com TXT": ["v=spf1 -all", "other"] } })))
  })

  it("whatever is asked, and in what order, each key runs once", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom("mx1.example.com", "MX1.example.com", "gone.example.com", "none.example.com"),
          {
            maxLength: 12
          }
        ),
        async (hosts) => {
          const { ran, question } = counting()
          await Effect.runPromise(
            inScan(
              Effect.flatMap(Facts, (facts) =>
                Effect.forEach(hosts, (h) => Effect.either(facts.ask(question, h)), { concurrency: 3 })
              )
            )
          )
          expect(ran.map((h) => h.toLowerCase()).sort()).toEqual(
            [...new Set(hosts.map((h) => h.toLowerCase()))].sort()
          )
        }
      ),
      { numRuns: runs(50) }
    ))
})
