/**
 * Benchmark: queries per second through our Resolver against the world's Unbound (cache-hot names,
 * our own cache bypassed with `fresh`), beside two baselines run against the same Unbound in the
 * same round: a bare node:dgram loop (send, match the id, send the next: what a Node resolver would
 * reach if decoding, checking and Effect were free) and dnsperf (C). All ask with EDNS0 + DO and at most OUTSTANDING queries in flight.
 * Prints the three rates and the ratios Resolver/dnsperf (issue 4's goal: 50%), Resolver/bare and
 * bare/dnsperf, per round and as medians; CPU per query is this process's user+sys time.
 *   scripts/bench/resolver [seconds=10] [outstanding=100] [rounds=3]
 * Figures, the profile and what limits the ratio: docs/bench.md.
 */
import { execFileSync } from "node:child_process"
import * as dgram from "node:dgram"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Layer } from "effect"
import type { RecordType } from "../../src/net/Dns.ts"
import { queryPacket } from "../../src/net/DnsTransport.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { worldEnv } from "../../test/world/env.ts"

const seconds = Number(process.argv[2] ?? 10)
const outstanding = Number(process.argv[3] ?? 100)
const rounds = Number(process.argv[4] ?? 3)
// Values may be shell-quoted in world.env.
const env = Object.fromEntries(
  Object.entries(worldEnv()).map(([k, v]) => [k, v.replace(/^'(.*)'$/, "$1").replace(/^"(.*)"$/, "$1")])
)
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

/** One timed run through the Resolver: `outstanding` fibers asking in a loop, our cache bypassed. */
const ours = (settled: ReadonlyArray<[string, RecordType]>) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
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
    const cpu = process.cpuUsage()
    yield* Effect.all(
      Array.from({ length: outstanding }, () => worker),
      { concurrency: "unbounded" }
    )
    const used = process.cpuUsage(cpu)
    const elapsed = (performance.now() - start) / 1000
    return { qps: ok / elapsed, ok, failed, cpuPerQuery: (used.user + used.system) / Math.max(1, ok) }
  })

/** Warms Unbound's cache and keeps the questions that settle (bogus zones SERVFAIL). */
const warm = Effect.gen(function* () {
  const resolver = yield* Resolver
  const settled: Array<[string, RecordType]> = []
  for (const [name, type] of questions) {
    const r = yield* Effect.either(resolver.query(name, type, { fresh: true }))
    if (r._tag === "Right") settled.push([name, type])
  }
  return settled
})

/**
 * The platform's baseline: one connected node:dgram socket, `outstanding` queries in flight, each
 * reply matched by its id only and the next query sent at once. No decoding, no checks, no Effect:
 * roughly the most a Node process asking one datagram per send gets from the same Unbound.
 */
const bareNode = (settled: ReadonlyArray<[string, RecordType]>) =>
  Effect.async<{ qps: number; cpuPerQuery: number }>((resume) => {
    const socket = dgram.createSocket("udp4")
    const packets = settled.map(([name, type]) => queryPacket(0, { name, type, checkingDisabled: false }))
    const waiting = new Set<number>()
    let ok = 0
    let next = 0
    let id = 0
    let start = 0
    let cpu = process.cpuUsage()
    const deadline = () => performance.now() + seconds * 1000
    let end = Infinity
    const ask = () => {
      if (performance.now() >= end) {
        if (waiting.size > 0) return
        const used = process.cpuUsage(cpu)
        socket.close()
        const elapsed = (performance.now() - start) / 1000
        return resume(
          Effect.succeed({ qps: ok / elapsed, cpuPerQuery: (used.user + used.system) / Math.max(1, ok) })
        )
      }
      const packet = packets[next++ % packets.length]!
      id = (id + 1) & 0xffff
      packet[0] = id >> 8
      packet[1] = id & 0xff
      waiting.add(id)
      socket.send(packet)
    }
    socket.on("message", (msg) => {
      if (waiting.delete((msg[0]! << 8) | msg[1]!)) {
        ok++
        ask()
      }
    })
    socket.connect(53, server, () => {
      start = performance.now()
      cpu = process.cpuUsage()
      end = deadline()
      for (let i = 0; i < outstanding; i++) ask()
    })
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
  const settled = yield* warm
  const dir = mkdtempSync(join(tmpdir(), "bench-resolver-"))
  const file = join(dir, "queries.txt")
  writeFileSync(file, settled.map(([n, t]) => `${n} ${t}`).join("\n") + "\n")
  console.log(
    `${settled.length} cache-hot questions, ${outstanding} outstanding, EDNS0+DO, ${rounds} rounds of ${seconds}s each`
  )
  const rows: Array<{ ours: number; bare: number; perf: number }> = []
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`
  for (let round = 1; round <= rounds; round++) {
    const a = yield* ours(settled)
    const n = yield* bareNode(settled)
    const b = dnsperf(file)
    rows.push({ ours: a.qps, bare: n.qps, perf: b.qps })
    console.log(
      `round ${round}: Resolver ${a.qps.toFixed(0)} qps (${a.failed} failed, ${a.cpuPerQuery.toFixed(1)} µs CPU/query) | ` +
        `bare node:dgram ${n.qps.toFixed(0)} qps (${n.cpuPerQuery.toFixed(1)} µs CPU/query) | ` +
        `dnsperf ${b.qps.toFixed(0)} qps (${b.lost} lost) | Resolver/dnsperf ${pct(a.qps / b.qps)}, ` +
        `Resolver/bare ${pct(a.qps / n.qps)}, bare/dnsperf ${pct(n.qps / b.qps)}`
    )
  }
  const m = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f))
  console.log(
    `median: Resolver ${m((r) => r.ours).toFixed(0)} qps, bare node:dgram ${m((r) => r.bare).toFixed(0)} qps, ` +
      `dnsperf ${m((r) => r.perf).toFixed(0)} qps | Resolver/dnsperf ${pct(m((r) => r.ours / r.perf))} ` +
      `(goal 50%), Resolver/bare ${pct(m((r) => r.ours / r.bare))}, bare/dnsperf ${pct(m((r) => r.bare / r.perf))}`
  )
})

await Effect.runPromise(main.pipe(Effect.provide(layer)))
