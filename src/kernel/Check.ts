/**
 * The shape every check has (DESIGN.md "A check"), so the Scanner, the score, the reports and a
 * newcomer handle all of them alike:
 *
 * - what it is (`Identity`, kernel/Declaration.ts): `id`, `title` and `category`; `result`, the
 *   Schema of what it produces: the single source of the result's TypeScript type (`typeof X.Type`),
 *   its OpenAPI schema, stored snapshots and messages. A registered check declares it in its About.ts
 *   with the rest of what it declares (`declared`), and `define(about, { gather, analyse, ... })`
 *   joins it to what the check does;
 * - `gather`: an Effect that reads the world only through `Facts`, folding every failure into the
 *   gathered value (a failed look-up is data, "unknown", never an error and never "missing");
 * - `analyse(gathered, now)`: pure and total; the RFC logic and the property tests live there.
 *
 * A check that builds on another's verdict reads it with `need(Other)`: the other check runs once
 * per scan, and the Scanner learns the edge of its fiber graph.
 *
 * A registered check also carries its example: what it gathers for example.com (`exampleGathered`,
 * its folder's `Example.ts`, over the example domain of kernel/examples/), which `define` analyses
 * into `example()`. The example scan and the OpenAPI examples read it there, so adding a check
 * edits no example module elsewhere.
 */
import { Clock, Effect, FiberRef } from "effect"
import { type About, aboutOf, type Declared, type Identity } from "./Declaration.ts"
import { NOW } from "./examples/ExampleZone.ts"
import { once } from "./examples/Once.ts"
import { Fact, type FactContext, Facts, type Pending } from "./Facts.ts"
import type { Served } from "./Served.ts"

export { Categories, type Category } from "./Declaration.ts"

/**
 * What a check does: the part `define` takes beside the check's identity (and, for a registered
 * check, its declarations: `Declared`, its About.ts).
 */
export interface Work<G, A> {
  readonly gather: Effect.Effect<G, never, FactContext>
  readonly analyse: (gathered: G, now: Date) => A
  /** This check's own budget (default `CHECK_TIMEOUT_MS`); the scan's deadline bounds it too. */
  readonly timeoutMs?: number
  /**
   * What `gather` would return for the example domain (kernel/examples/ExampleZone.ts), from the
   * check's `Example.ts`: hand-made where a server answers (a response, an SMTP session), the real
   * gather over the in-memory zone where DNS does. Every registered check has one.
   */
  readonly exampleGathered?: () => G
  /** Its own endpoint, when it is served alone on `?domain=` (kernel/Served.ts): api/ reads it here. */
  readonly served?: Served
}

/** A check as `define` makes it: what it is and what it does, in one object. */
export interface CheckCore<Id extends string, G, A, I = A> extends Identity<Id, A, I>, Work<G, A> {}

export interface Check<Id extends string, G, A, I = A> extends CheckCore<Id, G, A, I> {
  /**
   * Everything else about it (kernel/Declaration.ts): rules, catalogue entries, report section, CSV
   * columns, NIS2 evidence, deep scans. Every check of the registry has it (`Registered`); a check
   * run only on demand (`/dns/propagation`) needs none.
   */
  readonly about?: About
  /**
   * The check's result for the example domain: `analyse` over `exampleGathered` at the examples'
   * instant (`NOW`), computed once. The example scan and the OpenAPI examples are made of these.
   */
  readonly example?: () => A
}

// Checks of every shape live in one registry, so the erased form must accept any of them.
export type AnyCheck = Check<string, any, any, any>

/** A check the registry can list: one that declares everything about itself, and its example. */
export type Registered = AnyCheck & { readonly about: About; readonly example: () => unknown }

export type ResultOf<C> = C extends Check<string, any, infer A, any> ? A : never

/**
 * A check, from what it is and what it does. A registered check's first half is its About.ts
 * (`declared`: its identity with everything it declares), typed as `Registered` so the registry can
 * list it; its declarations are written over its own result and kept as `About`. Such a check must
 * bring its example (`exampleGathered`): without it no overload accepts the check. A check run only
 * on demand (`/dns/propagation`) and the tests' checks name only their identity.
 */
export function define<const Id extends string, G, A, I>(
  about: Declared<Id, A, I>,
  work: Work<G, A> & { readonly exampleGathered: () => NoInfer<G> }
): Check<Id, G, A, I> & { readonly about: About; readonly example: () => A }
export function define<const Id extends string, G, A, I>(
  identity: Identity<Id, A, I>,
  work: Work<G, A>
): Check<Id, G, A, I>
export function define<const Id extends string, G, A, I>(
  about: Identity<Id, A, I> | Declared<Id, A, I>,
  work: Work<G, A>
): Check<Id, G, A, I> {
  const { id, title, category, result, ...declarations } = about
  const gathered = work.exampleGathered
  return {
    ...work,
    id,
    title,
    category,
    result,
    ...("rules" in declarations ? { about: aboutOf(declarations) } : {}),
    ...(gathered === undefined ? {} : { example: once(() => work.analyse(gathered(), NOW)) })
  }
}

/**
 * `analyse` for a check whose gather returns the domain beside what it fetched (the web checks: a
 * page is judged against the name it was asked for), from the form `analyse(domain, gathered, now)`
 * its tests call.
 */
export const overDomain =
  <G, A>(analyse: (domain: string, gathered: G, now: Date) => A) =>
  ({ domain, gathered }: { readonly domain: string; readonly gathered: G }, now: Date): A =>
    analyse(domain, gathered, now)

/** When each check ran and what it waited for: the scan's fiber graph, as it happened. */
export interface CheckTiming {
  startMs: number
  endMs: number
  /** Time spent awaiting another check's result (not this check's own work): [check id, from, to]. */
  readonly waits: Array<readonly [string, number, number]>
  readonly needs: Set<string>
}

export type ScanTrace = Map<string, CheckTiming>

/** The trace of the scan this fiber works for (none outside a scan). */
export const CurrentTrace = FiberRef.unsafeMake<ScanTrace | null>(null)
const CurrentCheck = FiberRef.unsafeMake<string | null>(null)

/**
 * Records the check's timing in the scan's trace. A check's result runs in a fiber of its own (the
 * memo forks it: `resultFact`), so the current check is set for that fiber rather than scoped with
 * `locally`, and the end is taken from the exit: each region (`locally`, `ensuring`) would add
 * frames to the stack of every check's fiber parked on a `need` (docs/bench.md, the batch).
 */
const timed =
  (id: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.gen(function* () {
      const trace = yield* FiberRef.get(CurrentTrace)
      const timing: CheckTiming = {
        startMs: yield* Clock.currentTimeMillis,
        endMs: 0,
        waits: [],
        needs: new Set()
      }
      trace?.set(id, timing)
      yield* FiberRef.set(CurrentCheck, id)
      const exit = yield* Effect.exit(self)
      timing.endMs = yield* Clock.currentTimeMillis
      return yield* exit
    })

/**
 * A span, only while the tracer is on: with it off (the batch's scans), `withSpan` still wraps the
 * work in a region for a span that goes nowhere, frames on the stack of every check's fiber.
 */
export const traced =
  (name: string, attributes: Record<string, string>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    const spanned = Effect.withSpan(self, name, { attributes, captureStackTrace: false })
    return Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (on) => (on ? spanned : self))
  }

const facts = new WeakMap<AnyCheck, Fact<unknown>>()

/** The check's result as a derived fact: gathered and analysed once per scan. */
export const resultFact = <A>(check: Check<string, any, A, any>): Fact<A> => {
  let fact = facts.get(check) as Fact<A> | undefined
  if (fact === undefined) {
    fact = Fact.define(
      `check.${check.id}`,
      Effect.gen(function* () {
        const gathered = yield* check.gather
        return check.analyse(gathered, new Date(yield* Clock.currentTimeMillis))
      }).pipe(timed(check.id), traced(`Check.${check.id}`, { check: check.id })),
      // its own span, Check.<id>: the scan adds none
      { span: false }
    )
    facts.set(check, fact as Fact<unknown>)
  }
  return fact
}

/** Inside a `gather`: the result of another check of the same scan (an edge of the fiber graph). */
export const need = <A>(check: Check<string, any, A, any>): Effect.Effect<A, never, Facts> =>
  Effect.map(needAll({ result: check }), ({ result }) => result)

/**
 * Inside a `gather`: the results of several other checks, as `need` each, started together and
 * awaited in turn in the calling fiber. `Effect.all` of `need`s with a concurrency would fork a
 * fiber per check that only waits (docs/bench.md, the batch); the finishing time is the same.
 */
export const needAll = <const Cs extends Record<string, Check<string, any, any, any>>>(
  checks: Cs
): Effect.Effect<{ readonly [K in keyof Cs]: ResultOf<Cs[K]> }, never, Facts> =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const [trace, current] = [yield* FiberRef.get(CurrentTrace), yield* FiberRef.get(CurrentCheck)]
    const timing = current === null ? undefined : trace?.get(current)
    const started: Array<readonly [string, string, Pending<unknown, never>]> = []
    for (const [key, check] of Object.entries(checks))
      started.push([key, check.id, yield* facts.start(resultFact(check) as Fact<unknown>)])
    const results: Record<string, unknown> = {}
    for (const [key, id, outcome] of started) {
      const since = yield* Clock.currentTimeMillis
      results[key] = yield* outcome.await
      if (timing) {
        timing.needs.add(id)
        timing.waits.push([id, since, yield* Clock.currentTimeMillis])
      }
    }
    return results as { readonly [K in keyof Cs]: ResultOf<Cs[K]> }
  })
