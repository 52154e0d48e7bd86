/**
 * Benchmark: queries per second through our Resolver against the world's Unbound (cache-hot names,
 * our own cache bypassed with `fresh`), beside dnsperf against the same Unbound in the same run.
 * Both ask with EDNS0 + DO and at most OUTSTANDING queries in flight. Prints both rates and the ratio.
 *   scripts/bench/resolver [seconds=10] [outstanding=100]
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Layer } from "effect"
import type { RecordType } from "../../src/net/Dns.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { worldEnv } from "../../test/world/env.ts"

const seconds = Number(process.argv[2] ?? 10)
const outstanding = Number(process.argv[3] ?? 100)
const env = worldEnv()
const server = (env.DNS_RESOLVERS ?? "127.53.1.1").split(",")[0]!.replace(/:53$/, "")

// Cache-hot questions: every scenario domain with the types most checks ask.
const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
  scenarios: Array<{ domain: string }>
}
const domains = manifest.scenarios.map((s) => s.domain).filter((d) => /^[a-z0-9.-]+$/.test(d))
const questions: Array<[string, RecordType]> = domains.flatMap((d) =>
  (["A", "MX", "TXT"] as const).map((t): [string, RecordType] => [d, t])
)

const layer = Resolver.Default.pipe(
  Layer.provide(
    Layer.setConfigProvider(
      ConfigProvider.fromMap(
        new Map([
          ["DNS_RESOLVERS", server],
          ["DNS_TIMEOUT_MS", "2000"],
          ["DNS_RETRIES", "0"]
        ])
      )
    )
  )
)

const ours = Effect.gen(function* () {
  const resolver = yield* Resolver
  // Warm Unbound's cache (and drop questions that do not settle, e.g. bogus zones).
  const settled: Array<[string, RecordType]> = []
  for (const [name, type] of questions) {
    const r = yield* Effect.either(resolver.query(name, type, { fresh: true }))
    if (r._tag === "Right") settled.push([name, type])
  }
  let ok = 0
  let failed = 0
  let next = 0
  const deadline = performance.now() + seconds * 1000
  const worker = Effect.gen(function* () {
    while (performance.now() < deadline) {
      const [name, type] = settled[next++ % settled.length]!
      const r = yield* Effect.either(resolver.query(name, type, { fresh: true }))
      if (r._tag === "Right") ok++
      else failed++
    }
  })
  const start = performance.now()
  yield* Effect.all(
    Array.from({ length: outstanding }, () => worker),
    { concurrency: "unbounded" }
  )
  const elapsed = (performance.now() - start) / 1000
  return { qps: ok / elapsed, ok, failed, settled }
}).pipe(Effect.provide(layer))

const result = await Effect.runPromise(ours)

const dir = mkdtempSync(join(tmpdir(), "bench-resolver-"))
const file = join(dir, "queries.txt")
writeFileSync(file, result.settled.map(([n, t]) => `${n} ${t}`).join("\n") + "\n")
const out = execFileSync(
  "dnsperf",
  ["-s", server, "-d", file, "-l", String(seconds), "-q", String(outstanding), "-D", "-c", "1", "-T", "1"],
  { encoding: "utf8" }
)
const dnsperfQps = Number(/Queries per second:\s+([\d.]+)/.exec(out)?.[1] ?? NaN)
const lost = /Queries lost:\s+(\d+)/.exec(out)?.[1] ?? "?"

console.log(
  `questions: ${result.settled.length} cache-hot names x types, ${outstanding} outstanding, ${seconds}s each, EDNS0+DO`
)
console.log(`Resolver: ${result.qps.toFixed(0)} qps (${result.ok} answered, ${result.failed} failed)`)
console.log(`dnsperf:  ${dnsperfQps.toFixed(0)} qps (${lost} lost)`)
console.log(`ratio:    ${((100 * result.qps) / dnsperfQps).toFixed(1)}% of dnsperf`)
