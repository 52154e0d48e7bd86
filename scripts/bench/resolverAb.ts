/**
 * Benchmark: two checkouts' Resolver side by side in one process against the world's Unbound, in
 * alternating slices (the bench's loop of scripts/bench/resolver.ts: 100 fibers asking cache-hot
 * questions, our cache bypassed with `fresh`). On a shared machine the rates of runs a minute apart
 * swing more than a change of a few percent; slices a second apart in one process see the same
 * machine, so their CPU per query (this process's user+sys time over the slice) compares.
 *   npx tsx scripts/bench/resolverAb.ts BEFORE_ROOT [AFTER_ROOT=.] [seconds per slice=1.5] [pairs=24]
 * BEFORE_ROOT is another checkout of the repository (e.g. `git worktree add` or an export of a
 * commit) using the same node_modules. Figures: docs/bench.md, the resolver.
 */
import { resolve } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import {
  askInLoop,
  benchEnv,
  benchResolverConfig,
  scenarioQuestions,
  warm,
  worldResolver
} from "./dnsBaseline.ts"

const roots = [resolve(process.argv[2] ?? "."), resolve(process.argv[3] ?? ".")]
const slice = Number(process.argv[4] ?? 1.5)
const pairs = Number(process.argv[5] ?? 24)
const server = worldResolver(benchEnv())

interface Slice {
  readonly qps: number
  readonly cpu: number
  readonly failed: number
}

const sides = await Promise.all(
  roots.map(async (root) => {
    const { Resolver } = (await import(
      `${root}/src/net/Resolver.ts`
    )) as typeof import("../../src/net/Resolver.ts")
    const config = benchResolverConfig(server)
    return {
      Resolver,
      runtime: ManagedRuntime.make(Resolver.Default.pipe(Layer.provide(Layer.setConfigProvider(config))))
    }
  })
)

// The same key ("Resolver") in both checkouts: either side's runtime answers `warm`.
const settled = await sides[0]!.runtime.runPromise(warm(scenarioQuestions(benchEnv())))

/** One slice through side `k`'s Resolver. */
const once = (k: number): Promise<Slice> =>
  sides[k]!.runtime.runPromise(
    Effect.gen(function* () {
      const resolver = yield* sides[k]!.Resolver
      const run = yield* askInLoop(
        (name, type) => resolver.query(name, type, { fresh: true }),
        settled,
        100,
        slice
      )
      return { qps: run.ok / run.elapsed, cpu: run.cpuPerQuery, failed: run.failed }
    })
  )

// A slice each first, unmeasured: both sides compiled and their connections open.
await once(0)
await once(1)
const results: [Array<Slice>, Array<Slice>] = [[], []]
for (let i = 0; i < pairs; i++) for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) results[k]!.push(await once(k))

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const range = (xs: ReadonlyArray<number>, digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`
results.forEach((r, k) =>
  console.log(
    `${roots[k]}: µs CPU/query ${range(
      r.map((s) => s.cpu),
      2
    )}, qps ${median(r.map((s) => s.qps)).toFixed(0)}, failed ${r.reduce((n, s) => n + s.failed, 0)}`
  )
)
console.log(
  `CPU per query, second over first, per pair: ${range(
    results[0].map((a, i) => results[1][i]!.cpu / a.cpu),
    3
  )}`
)
await Promise.all(sides.map((s) => s.runtime.dispose()))
