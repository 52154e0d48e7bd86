/**
 * Benchmark: the batch scanner over the world's synthetic domains (full scans, scored, written as
 * JSONL), at each concurrency in turn, each run in a fresh process (`batchRun.ts`): domains per
 * minute, DNS queries per second that left for the resolver, this process's CPU use (in cores) and
 * peak RSS. Beside them, the resolver ceiling measured in the same run, before and after: the bare
 * node:dgram rate of scripts/bench/resolver.ts (`dnsBaseline.ts`) against the same Unbound.
 * With `--cpu-prof`, the last run writes a V8 CPU profile, summarised here by where the time went
 * (idle = waiting for the network; the rest is our process's CPU). With `--live-heap`, each run
 * also samples its live heap after full GCs (which cost CPU: compare CPU figures without it) and
 * prints the live MB per scan in flight. Each run executes batchRun.ts bundled by esbuild, as
 * `npm run batch` runs the scanner (compiled, no tsx `keepNames`); with `--cpu-prof` through tsx
 * instead, so that the profile names the source files it summarises by folder (with
 * `--cpu-prof=bundled`, of the bundle: tsx's transform loses most function names and lines).
 * Each run has the heap cap `npm run batch` has (`MAX_HEAP_MB`, default 384, in the environment
 * here too), its young generation (16 MB semi-spaces) and its malloc arenas (MALLOC_ARENA_MAX=2),
 * as bin/domain-audit.mjs sets them, and so its heap admission (`src/batch/HeapRoom.ts`: the "held
 * for heap" column).
 * `--node=<flag>` passes a node or V8 flag to the measured runs (GC settings: docs/bench.md).
 * With RTT_MS=<ms> in the environment, batchRun delivers every DNS answer from the network that
 * much later: the world answers in well under a millisecond, a resolver on the internet in tens.
 * With `--against=<git ref>`, it instead runs that commit's batch and this checkout's in turn, three
 * times each per concurrency, and prints the ratios of their median throughput, peak RSS, CPU ms per
 * domain and HTTPS connections per domain: a change's cost measured in one invocation on the same
 * machine state. `--runtime=<node binary>` runs this checkout's batch on that node (default: the
 * node running this bench), `--against-runtime=<node binary>` the ref's: with `--against=HEAD`, the
 * same code on two versions of node. With `--compare` too, the runs' records are compared domain by
 * domain, timings left out (batchRecords.ts): the ref's runs with each other (what differs from run
 * to run) and each of this checkout's runs with the ref's first.
 *   npx tsx scripts/bench/batch.ts [domains=1000] [concurrencies=100,1000] [--depth=quick|standard|full] [--cpu-prof[=bundled]] [--live-heap] [--node=<flag>] [--runtime=<node>] [--against=<ref> [--against-runtime=<node>] [--compare]]
 * Needs the world up with synthetic domains (scripts/world/up --synthetic N). When the list asks
 * for more domains than the world has, they are scanned again, as `againN.<domain>` in the list
 * (batchRun.ts scans `<domain>`): the same zones, the same work per scan, fewer answers unseen by
 * Unbound. Figures: docs/bench.md.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ConfigProvider, Effect, Layer } from "effect"
import { Resolver } from "../../src/net/Resolver.ts"
import { bareNode, benchEnv, scenarioQuestions, warm, worldResolver } from "./dnsBaseline.ts"
import { comparedRuns } from "./batchRecords.ts"

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"))
const [countText = "1000", levelsText = "100,1000"] = process.argv.slice(2).filter((a) => !a.startsWith("--"))
/** `--cpu-prof=bundled`: the profile of the bundle `npm run batch` runs, functions named, folders not. */
const bundledProfile = flags.includes("--cpu-prof=bundled")
const profile = flags.includes("--cpu-prof") || bundledProfile
const liveHeap = flags.includes("--live-heap")
/** `--depth=quick|standard|full` (default full): the scans' depth, as `batch --depth` (docs/batch.md "Depth"). */
const depth = flags.find((a) => a.startsWith("--depth="))?.slice("--depth=".length) ?? "full"
/** `--node=<flag>` (repeatable): a node or V8 flag for the measured runs, e.g. `--node=--max-semi-space-size=16`. */
const nodeFlags = flags.filter((a) => a.startsWith("--node=")).map((a) => a.slice("--node=".length))
/** `--runtime=<path>`: the node that runs this checkout's batch; `--against-runtime=<path>`: the ref's. */
const flagValue = (name: string) => flags.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const runtime = flagValue("runtime") ?? process.execPath
const againstRuntime = flagValue("against-runtime") ?? runtime
const versionOf = (node: string) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim()
const env = benchEnv()
const server = worldResolver(env)
const root = fileURLToPath(new URL("../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "bench-batch-"))

const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
  scenarios: Array<{ domain: string; synthetic?: boolean }>
}
const synthetic = manifest.scenarios.filter((s) => s.synthetic === true).map((s) => s.domain)
if (synthetic.length === 0)
  throw new Error("the world has no synthetic domains: scripts/world/up --synthetic 200")
const domains = Array.from({ length: Number(countText) }, (_, i) => {
  const round = Math.floor(i / synthetic.length)
  const domain = synthetic[i % synthetic.length]!
  return round === 0 ? domain : `again${round}.${domain}`
})
const list = join(dir, "domains.txt")
writeFileSync(list, domains.join("\n") + "\n")

/** The resolver ceiling: the bare node:dgram rate on cache-hot questions, 100 in flight. */
const ceiling = () =>
  Effect.gen(function* () {
    const settled = yield* warm(scenarioQuestions(env))
    return (yield* bareNode(server, settled, 5, 100)).qps
  }).pipe(
    Effect.provide(
      Resolver.Default.pipe(
        Layer.provide(
          Layer.setConfigProvider(
            ConfigProvider.fromMap(
              new Map([
                ["DNS_RESOLVERS", server],
                ["DNS_RETRIES", "0"]
              ])
            )
          )
        )
      )
    ),
    Effect.runPromise
  )

interface Run {
  concurrency: number
  scanned: number
  failed: number
  incomplete: number
  wallMs: number
  cpuMs: number
  questions: number
  sent: number
  peakRssMb: number
  fibers: number
  liveInFlight: number
  liveMbPerScan: number | null
  heldForMemory: number
  /** Scans that waited for the DNS sweeps' window (`src/scan/SweepScheduler.ts`). */
  heldForDns: number
  /** TCP connections to port 25: SMTP sessions opened. */
  smtpSessions: number
  /** TCP connections that completed, by remote port. */
  connects: Record<string, number>
  /** Domains with each check unknown, by check id. */
  unknown: Record<string, number>
  /** Domains with each score record unknown for an unanswered question (the "unknown" column), by id. */
  unanswered: Record<string, number>
  /** DKIM sweeps that took longer than the scheduler's target, and its window at the end. */
  lateSweeps: number
  sweepWindow: number
  /** process.memoryUsage() at the highest RSS seen (sampled every 100 ms), with the scans in flight then. */
  peak: { rss: number; heapUsed: number; heapTotal: number; external: number; inFlight: number; atMs: number }
}

/** batchRun.ts of the checkout at `checkout` as one ES module (what package.json's "build" does). */
const bundle = (checkout: string) => {
  // inside the checkout: the bundle imports its packages from node_modules
  const file = join(checkout, "dist/bench/batchRun.mjs")
  execFileSync(
    join(root, "node_modules/.bin/esbuild"),
    [
      "scripts/bench/batchRun.ts",
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=node20",
      "--packages=external",
      `--outfile=${file}`,
      "--log-level=warning"
    ],
    { cwd: checkout, stdio: "inherit" }
  )
  return file
}

/** This checkout's batchRun.ts, bundled once. */
const bundled = (() => {
  let file: string | undefined
  return () => (file ??= bundle(root))
})()

/**
 * `--against=<git ref>`: the same bench of that commit's code, extracted beside (git archive, this
 * checkout's node_modules linked in), for runs alternating with this checkout's in one invocation.
 */
const against = flags.find((a) => a.startsWith("--against="))?.slice("--against=".length)
const againstBundle = (ref: string) => {
  const checkout = mkdtempSync(join(tmpdir(), "bench-against-"))
  execFileSync("sh", ["-c", `git -C "${root}" archive "$1" | tar -x -C "${checkout}"`, "sh", ref])
  symlinkSync(join(root, "node_modules"), join(checkout, "node_modules"))
  return bundle(checkout)
}

/** `--compare`: each run's JSONL is kept (under the bench's temp folder) and compared record by record. */
const keep = flags.includes("--compare")
let runCount = 0
const runAt = (
  concurrency: number,
  withProfile: boolean,
  file = bundled(),
  node = runtime
): Run & { out: string } => {
  const out = join(dir, `out-${concurrency}-${runCount++}.jsonl`)
  rmSync(out, { force: true })
  const args = [
    // the heap cap and young generation of `npm run batch` (MAX_HEAP_MB), unless --node= sets them
    ...(nodeFlags.some((f) => f.startsWith("--max-old-space-size"))
      ? []
      : [`--max-old-space-size=${process.env.MAX_HEAP_MB ?? 384}`]),
    ...(nodeFlags.some((f) => f.startsWith("--max-semi-space-size")) ? [] : ["--max-semi-space-size=16"]),
    ...(withProfile ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : []),
    ...(liveHeap ? ["--expose-gc"] : []),
    ...nodeFlags,
    ...(profile && !bundledProfile ? ["--import", "tsx", "scripts/bench/batchRun.ts"] : [file]),
    list,
    out,
    String(concurrency)
  ]
  const stdout = execFileSync(node, args, {
    cwd: root,
    // glibc's arenas as bin/domain-audit.mjs sets them
    env: { MALLOC_ARENA_MAX: "2", ...process.env, ...env, LOG_LEVEL: "Error", BENCH_DEPTH: depth },
    encoding: "utf8",
    maxBuffer: 1 << 24,
    stdio: ["ignore", "pipe", "inherit"]
  })
  if (!keep) rmSync(out, { force: true })
  return { ...(JSON.parse(stdout.trim().split("\n").at(-1)!) as Run), out }
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: Array<number>
}

/** Self time of a V8 CPU profile by where the code lives. */
const summariseProfile = (file: string) => {
  const prof = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: Array<ProfileNode>
    samples: Array<number>
    timeDeltas: Array<number>
  }
  const byId = new Map(prof.nodes.map((n) => [n.id, n]))
  const bucket = (n: ProfileNode): string => {
    const { functionName, url } = n.callFrame
    if (functionName === "(idle)") return "idle (waiting for the network)"
    if (functionName === "(garbage collector)") return "garbage collector"
    if (functionName === "(program)") return "V8/native (program)"
    if (url.includes("node_modules/effect/")) return "Effect runtime"
    if (url.includes("node_modules/"))
      return `libraries (${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]})`
    const own = /\/src\/([^/]+)\//.exec(url)
    if (own) return `src/${own[1]}`
    if (url.startsWith("node:") || url === "") return "node internals"
    return "other"
  }
  const times = new Map<string, number>()
  let total = 0
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0
    total += dt
    const key = bucket(byId.get(id)!)
    times.set(key, (times.get(key) ?? 0) + dt)
  })
  const libs = new Map<string, number>()
  for (const [k, v] of times) {
    const key = k.startsWith("libraries") && v / total < 0.01 ? "libraries (each < 1%)" : k
    libs.set(key, (libs.get(key) ?? 0) + v)
  }
  return [...libs]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
}

/**
 * This checkout against `ref`, alternating (ref, this, ref, this, ...) `rounds` times at each
 * concurrency, so that a busy machine's drift falls on both alike: the ratios of the medians.
 */
const compare = (ref: string, levels: ReadonlyArray<number>, rounds = 3) => {
  const other = againstBundle(ref)
  console.log(`this checkout on node ${versionOf(runtime)}, ${ref} on node ${versionOf(againstRuntime)}`)
  const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  console.log(
    "concurrency  code      domains/min (each run)      peak RSS MB (each run)      CPU ms/domain (each run)    HTTPS connections/domain"
  )
  const cpu = (r: Run) => r.cpuMs / Math.max(1, r.scanned)
  const https = (r: Run) => (r.connects["443"] ?? 0) / Math.max(1, r.scanned)
  for (const c of levels) {
    const runs = { ref: [] as Array<Run & { out: string }>, this: [] as Array<Run & { out: string }> }
    for (let i = 0; i < rounds; i++) {
      runs.ref.push(runAt(c, false, other, againstRuntime))
      runs.this.push(runAt(c, false))
    }
    const rate = (r: Run) => (r.scanned * 60_000) / r.wallMs
    const each = (rs: ReadonlyArray<Run>, f: (r: Run) => number, digits = 0) =>
      rs.map((r) => f(r).toFixed(digits)).join(", ")
    for (const [name, rs] of Object.entries(runs))
      console.log(
        `${String(c).padStart(11)}  ${name.padEnd(8)}  ${each(rs, rate).padEnd(26)}  ${each(rs, (r) => r.peakRssMb).padEnd(26)}  ${each(rs, cpu, 1).padEnd(26)}  ${each(rs, https, 2)}`
      )
    for (const [name, rs] of Object.entries(runs))
      console.log(
        `${String(c).padStart(11)}  ${name.padEnd(8)}  TCP connections a domain by port: ${rs.map(byPort).join(" | ")}`
      )
    const ratio = (f: (r: Run) => number) => median(runs.this.map(f)) / median(runs.ref.map(f))
    if (keep)
      for (const line of comparedRuns(runs.ref, runs.this)) console.log(`${String(c).padStart(11)}  ${line}`)
    console.log(
      `${String(c).padStart(11)}  this/${ref}: throughput ${ratio(rate).toFixed(3)}, peak RSS ${ratio((r) => r.peakRssMb).toFixed(3)}, CPU ms/domain ${ratio(cpu).toFixed(3)}, HTTPS connections/domain ${ratio(https).toFixed(3)}`
    )
  }
}

/** Every TCP connection that completed, a domain, by remote port (53: DNS over TCP, the resolver's and the name servers'). */
const byPort = (r: Run) =>
  Object.entries(r.connects)
    .sort((a, b) => b[1] - a[1])
    .map(([port, n]) => `${port} ${(n / Math.max(1, r.scanned)).toFixed(2)}`)
    .join(", ") || "none"

/** Domains a minute per core used: the scans over the process's CPU time, not the wall's. */
const perCore = (r: Run) => (r.scanned * 60_000) / Math.max(1, r.cpuMs)

const main = async () => {
  const levels = levelsText.split(",").map(Number)
  if (against !== undefined) return compare(against, levels)
  console.log(
    `${domains.length} synthetic domains (${synthetic.length} in the world), ${depth} scans, concurrency ${levels.join(", ")}, node ${versionOf(runtime)}` +
      (nodeFlags.length > 0 ? `, node ${nodeFlags.join(" ")}` : "") +
      (process.env.RTT_MS
        ? `, every DNS answer from the network and every TCP connect delayed ${process.env.RTT_MS} ms (RTT_MS)`
        : "")
  )
  const before = await ceiling()
  console.log(`resolver ceiling (bare node:dgram, cache-hot, 100 in flight): ${before.toFixed(0)} qps`)
  const runs: Array<Run> = []
  for (const [i, c] of levels.entries()) {
    const run = runAt(c, profile && i === levels.length - 1)
    runs.push(run)
    console.log(`  concurrency ${c}: done in ${(run.wallMs / 1000).toFixed(1)} s`)
  }
  const after = await ceiling()
  console.log(`resolver ceiling after the runs: ${after.toFixed(0)} qps`)
  const mean = (before + after) / 2
  console.log(
    "concurrency  domains  wall s  domains/min  queries sent  queries/s  of ceiling  CPU cores  CPU ms/domain  domains/min/core  peak RSS MB  fibers/scan  live MB/scan  unknown  failed  held for heap"
  )
  for (const r of runs) {
    const qps = r.sent / (r.wallMs / 1000)
    console.log(
      [
        String(r.concurrency).padStart(11),
        String(r.scanned).padStart(8),
        (r.wallMs / 1000).toFixed(1).padStart(7),
        ((r.scanned * 60_000) / r.wallMs).toFixed(0).padStart(12),
        String(r.sent).padStart(13),
        qps.toFixed(0).padStart(10),
        `${((100 * qps) / mean).toFixed(1)}%`.padStart(11),
        (r.cpuMs / r.wallMs).toFixed(2).padStart(10),
        (r.cpuMs / Math.max(1, r.scanned)).toFixed(0).padStart(14),
        // CPU-normalised: the domains a minute of one core's time scans (process.cpuUsage of the
        // batch process), comparable across loads where domains/min is not.
        perCore(r).toFixed(0).padStart(17),
        r.peakRssMb.toFixed(0).padStart(12),
        (r.fibers / Math.max(1, r.scanned)).toFixed(0).padStart(12),
        (r.liveMbPerScan === null ? "-" : `${r.liveMbPerScan.toFixed(2)} (${r.liveInFlight})`).padStart(13),
        String(r.incomplete).padStart(8),
        String(r.failed).padStart(7),
        String(r.heldForMemory).padStart(14)
      ].join(" ")
    )
  }
  const tally = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([id, n]) => `${id} ${n}`)
      .join(", ") || "none"
  console.log(
    "concurrency  SMTP sessions/domain  HTTP(S) connections/domain  DNS queries/domain  CPU ms/domain  DKIM unknown  held for DNS  late sweeps  sweep window  checks unknown"
  )
  for (const r of runs)
    console.log(
      [
        String(r.concurrency).padStart(11),
        (r.smtpSessions / Math.max(1, r.scanned)).toFixed(2).padStart(21),
        (((r.connects["443"] ?? 0) + (r.connects["80"] ?? 0)) / Math.max(1, r.scanned))
          .toFixed(2)
          .padStart(27),
        (r.sent / Math.max(1, r.scanned)).toFixed(0).padStart(19),
        (r.cpuMs / Math.max(1, r.scanned)).toFixed(0).padStart(14),
        String(r.unknown["dkim"] ?? 0).padStart(13),
        String(r.heldForDns).padStart(13),
        String(r.lateSweeps).padStart(12),
        String(r.sweepWindow).padStart(13),
        ` ${tally(r.unknown)}`
      ].join(" ")
    )
  for (const r of runs)
    console.log(`at concurrency ${r.concurrency}, TCP connections a domain by remote port: ${byPort(r)}`)
  for (const r of runs)
    console.log(
      `at concurrency ${r.concurrency}, the records unknown for an unanswered question: ${tally(r.unanswered ?? {})}`
    )
  const mb = (n: number) => Math.round(n / 2 ** 20)
  for (const { concurrency, peak } of runs)
    console.log(
      `at concurrency ${concurrency}, the highest RSS (${(peak.atMs / 1000).toFixed(1)} s in, ${peak.inFlight} scans in flight): ` +
        `${mb(peak.rss)} MB, of which heap ${mb(peak.heapTotal)} MB (${mb(peak.heapUsed)} MB in use, garbage included), external ${mb(peak.external)} MB`
    )
  const prof = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))
  if (prof) {
    console.log(`CPU profile of the run at concurrency ${levels.at(-1)} (${join(dir, prof)}), self time:`)
    for (const line of summariseProfile(join(dir, prof)).slice(0, 14)) console.log(`  ${line}`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
