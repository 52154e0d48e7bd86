/**
 * Benchmark: queries per second through our Resolver against the world's Unbound (cache-hot names,
 * our own cache bypassed with `fresh`), beside two baselines run against the same Unbound in the
 * same round: a bare node:dgram loop (send, match the id, send the next: what a Node resolver would
 * reach if decoding, checking and Effect were free) and dnsperf (C). All ask with EDNS0 + DO and at most OUTSTANDING queries in flight.
 * Prints the three rates and the ratios Resolver/dnsperf (the goal: 50%), Resolver/bare (the goal:
 * 70%) and bare/dnsperf, per round and as medians; CPU per query is this process's user+sys time,
 * and "CPU" beside Resolver/bare is the bare loop's CPU per query over ours. Beside each, the
 * world's Unbound's CPU per query (from its pid file and /proc): what that way of asking costs the
 * server, which shares the machine's cores.
 *   scripts/bench/resolver [seconds=10] [outstanding=100] [rounds=3]
 * Figures, the profile and what limits the ratio: docs/bench.md.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { Resolver } from "../../src/net/Resolver.ts"
import {
  askInLoop,
  bareNode,
  benchEnv,
  benchResolverConfig,
  type Question,
  scenarioQuestions,
  upstreamCpu,
  warm,
  worldResolver
} from "./dnsBaseline.ts"

const seconds = Number(process.argv[2] ?? 10)
const outstanding = Number(process.argv[3] ?? 100)
const rounds = Number(process.argv[4] ?? 3)
const env = benchEnv()
const server = worldResolver(env)
// Cache-hot questions: every scenario domain with the types most checks ask.
const questions = scenarioQuestions(env)

// The world's Unbound's CPU (µs so far), when its pid file is found: what each way of asking costs it.
const unboundCpu = upstreamCpu()

const layer = Resolver.Default.pipe(Layer.provide(Layer.setConfigProvider(benchResolverConfig(server))))

/** One timed run through the Resolver: `outstanding` fibers asking in a loop, our cache bypassed. */
const ours = (settled: ReadonlyArray<Question>) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const run = yield* askInLoop(
      (name, type) => resolver.query(name, type, { fresh: true }),
      settled,
      outstanding,
      seconds
    )
    return { qps: run.ok / run.elapsed, ok: run.ok, failed: run.failed, cpuPerQuery: run.cpuPerQuery }
  })

const dnsperf = (file: string) => {
  const out = execFileSync(
    "dnsperf",
    ["-s", server, "-d", file, "-l", String(seconds), "-q", String(outstanding), "-D", "-c", "1", "-T", "1"],
    { encoding: "utf8" }
  )
  return {
    qps: Number(/Queries per second:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    lost: /Queries lost:\s+(\d+)/.exec(out)?.[1] ?? "?"
  }
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

// The machine is shared, so the two measurements alternate and each round gives its own ratio.
const main = Effect.gen(function* () {
  const settled = yield* warm(questions)
  const dir = mkdtempSync(join(tmpdir(), "bench-resolver-"))
  const file = join(dir, "queries.txt")
  writeFileSync(file, settled.map(([n, t]) => `${n} ${t}`).join("\n") + "\n")
  console.log(
    `${settled.length} cache-hot questions, ${outstanding} outstanding, EDNS0+DO, ${rounds} rounds of ${seconds}s each`
  )
  const rows: Array<{ ours: number; bare: number; perf: number; cpu: number }> = []
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`
  /** Unbound's CPU per query while `queries` were answered since `from` (µs), as text. */
  const unbound = (from: number | undefined, queries: number) =>
    unboundCpu === undefined || from === undefined
      ? ""
      : `, Unbound ${((unboundCpu() - from) / Math.max(1, queries)).toFixed(1)} µs/query`
  for (let round = 1; round <= rounds; round++) {
    const u0 = unboundCpu?.()
    const a = yield* ours(settled)
    const ua = unbound(u0, a.ok)
    const u1 = unboundCpu?.()
    const n = yield* bareNode(server, settled, seconds, outstanding)
    const un = unbound(u1, n.answered)
    const b = dnsperf(file)
    // CPU per query of the bare loop over ours: our overhead, less swayed by what else the machine runs.
    const cpu = n.cpuPerQuery / a.cpuPerQuery
    rows.push({ ours: a.qps, bare: n.qps, perf: b.qps, cpu })
    console.log(
      `round ${round}: Resolver ${a.qps.toFixed(0)} qps (${a.failed} failed, ${a.cpuPerQuery.toFixed(1)} µs CPU/query${ua}) | ` +
        `bare node:dgram ${n.qps.toFixed(0)} qps (${n.lost} lost, ${n.cpuPerQuery.toFixed(1)} µs CPU/query${un}) | ` +
        `dnsperf ${b.qps.toFixed(0)} qps (${b.lost} lost) | Resolver/dnsperf ${pct(a.qps / b.qps)}, ` +
        `Resolver/bare ${pct(a.qps / n.qps)} (CPU ${pct(cpu)}), bare/dnsperf ${pct(n.qps / b.qps)}`
    )
  }
  const m = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f))
  console.log(
    `median: Resolver ${m((r) => r.ours).toFixed(0)} qps, bare node:dgram ${m((r) => r.bare).toFixed(0)} qps, ` +
      `dnsperf ${m((r) => r.perf).toFixed(0)} qps | Resolver/dnsperf ${pct(m((r) => r.ours / r.perf))} ` +
      `(goal 50%), Resolver/bare ${pct(m((r) => r.ours / r.bare))} (goal 70%; CPU ${pct(m((r) => r.cpu))}), ` +
      `bare/dnsperf ${pct(m((r) => r.bare / r.perf))}`
  )
})

await Effect.runPromise(main.pipe(Effect.provide(layer)))
