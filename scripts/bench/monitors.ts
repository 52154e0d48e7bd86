/**
 * Benchmark: many monitors on one service process against the world. Starts the service as
 * `domain-audit serve` runs it (the bundle, under the heap cap MAX_HEAP_MB, default 384; `--tsx`:
 * the sources under tsx instead) on a fresh DATA_DIR, one runner with SQLite; creates N monitors over
 * the world's synthetic domains at one interval (their phases spread over it, as the service spreads
 * them); then, minute by minute, samples the runs finished (the cluster database's `monitor_runs`),
 * the runs in flight, the service's RSS (the kernel's VmRSS, and VmHWM for the peak), the V8 heap in
 * use and the cluster's entities in memory (both from /metrics). At the end: the scans per minute
 * sustained against the rate the schedule asks (N / interval), the runs started more than one
 * interval after their due time, the due times claimed more than once, and the history's bytes per
 * entry.
 *   npx tsx scripts/bench/monitors.ts [monitors=10000] [every=PT30M] [minutes=10] [--tsx]
 * Needs the world up with synthetic domains (scripts/world/up --synthetic 200); with fewer domains
 * than monitors, monitors share domains. Figures: docs/bench.md.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect } from "effect"
import { parseEvery } from "../../src/records/IsoDuration.ts"
// @ts-expect-error: a plain ES module without declarations
import { build, CLI_BUNDLE, stale } from "../build.mjs"
import { benchEnv } from "./dnsBaseline.ts"

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"))
const [countText = "10000", everyText = "PT30M", minutesText = "10"] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith("--"))
const underTsx = flags.includes("--tsx")
const count = Number(countText)
const every = parseEvery(everyText)
if (!("ms" in every)) throw new Error(every.error)
const minutes = Number(minutesText)
const root = fileURLToPath(new URL("../../", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "bench-monitors-"))
const env = benchEnv()
const heapMb = process.env.MAX_HEAP_MB ?? "384"

const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
  scenarios: Array<{ domain: string; synthetic?: boolean; mutatedAs?: string }>
}
const domains = manifest.scenarios
  .filter((s) => s.synthetic === true && s.mutatedAs === undefined)
  .map((s) => s.domain)
if (domains.length === 0)
  throw new Error("the world has no synthetic domains: scripts/world/up --synthetic 200")

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** VmRSS and VmHWM of `pid` in MB. */
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 }
}

if (!underTsx && (stale() as boolean)) await build()
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const child: ChildProcess = spawn(
  process.execPath,
  underTsx
    ? ["--import", "tsx", "src/main.ts"]
    : ["--enable-source-maps", `--max-old-space-size=${heapMb}`, CLI_BUNDLE as string, "serve"],
  {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "Warn",
      METRICS_ON_API: "true",
      MONITOR_MIN_INTERVAL: "PT1S",
      // the bench creates them all as the operator, past the default cap of 1,000
      MONITORS_PER_TENANT: String(count),
      RATE_COSTLY_BURST: "100000000",
      RATE_CHEAP_BURST: "100000000",
      ADMISSION_MAX_CPU_PERCENT: "100000"
    },
    stdio: ["ignore", "ignore", "inherit"]
  }
)
process.on("exit", () => child.kill("SIGKILL"))
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false
    )
  )
    break
  if (i > 240) throw new Error("the service did not start")
  await sleep(250)
}
console.log(
  `service: ${underTsx ? "sources under tsx, no heap cap" : `bundle, heap cap ${heapMb} MB`}; ` +
    `${count} monitors over ${domains.length} domains at ${everyText}; RSS at start ${memory(child.pid!).rss.toFixed(0)} MB`
)

/** From /metrics: the V8 heap in use (MB) and the cluster's entities in memory, by type. */
const scrape = async () => {
  const text = await fetch(`${base}/metrics`).then(
    (r) => r.text(),
    () => ""
  )
  const heap = /domain_audit_heap_bytes\{[^}]*kind="used"[^}]*\} ([\d.e+]+)/.exec(text)?.[1]
  const entities = [...text.matchAll(/effect_cluster_entities\{[^}]*type="([^"]+)"[^}]*\} ([\d.e+]+)/g)]
    .map(([, type, n]) => ({ type: type!.replace(/^Workflow\//, ""), n: Number(n) }))
    .filter((e) => e.n > 0)
  return {
    heapMb: heap === undefined ? NaN : Number(heap) / 1048576,
    entities: entities.reduce((sum, e) => sum + e.n, 0),
    byType: entities.map((e) => `${e.type} ${e.n}`).join(", ")
  }
}

// Create the monitors, 16 requests at a time.
const createdAt = Date.now()
let next = 0
let refused = 0
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let i = next++; i < count; i = next++) {
      for (;;) {
        const r = await fetch(`${base}/api/monitors`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain: domains[i % domains.length], every: everyText, alerts: [] })
        })
        if (r.status === 201) {
          await r.arrayBuffer()
          break
        }
        // Shed while the process is busy scanning: wait as told, as a client should.
        if (r.status === 503 || r.status === 429) {
          refused++
          await sleep(Number(r.headers.get("retry-after") ?? 1) * 1000)
          continue
        }
        throw new Error(`POST /monitors answered ${r.status}: ${await r.text()}`)
      }
    }
  })
)
const createMs = Date.now() - createdAt
const afterCreate = memory(child.pid!)
console.log(
  `created ${count} monitors in ${(createMs / 1000).toFixed(1)} s (${Math.round((count / createMs) * 1000)}/s; ` +
    `${refused} answers 503/429, retried); RSS ${afterCreate.rss.toFixed(0)} MB, peak ${afterCreate.peak.toFixed(0)} MB`
)

/** One row of a read-only query on a database file beside the running service (WAL allows it). */
const one = (file: string, text: string, ...params: Array<unknown>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(text, params)).pipe(
      Effect.map((rows) => rows[0] as Record<string, number>),
      Effect.provide(SqliteClient.layer({ filename: file, readonly: true }))
    )
  )
const cluster = join(dataDir, "cluster.sqlite")
const count1 = async (text: string, ...params: Array<unknown>) => (await one(cluster, text, ...params))!.n!
const finished = () => count1("SELECT count(*) AS n FROM monitor_runs WHERE finished_at IS NOT NULL")
const inFlight = () => count1("SELECT count(*) AS n FROM monitor_runs WHERE finished_at IS NULL")

const expected = (count / every.ms) * 60_000
console.log(`the schedule asks ${expected.toFixed(0)} scans/min`)
console.log("minute  scans/min  in flight  RSS MB  peak MB  heap MB  entities")
const start = Date.now()
const atStart = await finished()
let before = atStart
let highestRss = 0
for (let minute = 1; minute <= minutes; minute++) {
  await sleep(start + minute * 60_000 - Date.now())
  const now = await finished()
  const { rss, peak } = memory(child.pid!)
  highestRss = Math.max(highestRss, rss)
  const m = await scrape()
  console.log(
    `${String(minute).padStart(6)}  ${String(now - before).padStart(9)}  ${String(await inFlight()).padStart(9)}` +
      `  ${rss.toFixed(0).padStart(6)}  ${peak.toFixed(0).padStart(7)}  ${m.heapMb.toFixed(0).padStart(7)}` +
      `  ${String(m.entities).padStart(8)} (${m.byType})`
  )
  before = now
}
const total = await finished()
const late = await count1("SELECT count(*) AS n FROM monitor_runs WHERE started_at - due_at > ?", every.ms)
const twice = await count1("SELECT count(*) AS n FROM monitor_runs WHERE attempts > 1")
const lateness = await one(
  cluster,
  "SELECT avg(started_at - due_at) AS mean, max(started_at - due_at) AS max FROM monitor_runs"
)
console.log(
  `sustained: ${(((total - atStart) / (Date.now() - start)) * 60_000).toFixed(0)} scans/min over ${minutes} min` +
    ` (asked ${expected.toFixed(0)}); highest RSS sampled ${highestRss.toFixed(0)} MB, peak ${memory(child.pid!).peak.toFixed(0)} MB`
)
console.log(
  `runs: started after their due time by ${((lateness?.mean ?? 0) / 1000).toFixed(1)} s on average, ` +
    `${((lateness?.max ?? 0) / 1000).toFixed(1)} s at most; more than one interval late: ${late}; ` +
    `claimed more than once: ${twice}`
)
const history = join(dataDir, "domain-audit.sqlite")
const historyRows = await one(history, "SELECT count(*) AS n FROM scan_history").catch(() => undefined)
if (historyRows?.n) {
  const bytes = await one(history, "SELECT sum(pgsize) AS b FROM dbstat WHERE name = 'scan_history'").catch(
    () => undefined
  )
  console.log(
    `history: ${historyRows.n} entries, ` +
      (bytes?.b ? `${(bytes.b / historyRows.n).toFixed(0)} bytes per entry (table pages)` : "") +
      `; app database ${(statSync(history).size / 1e6).toFixed(1)} MB`
  )
} else console.log("history: not kept by this build (no scan_history table)")
child.kill("SIGTERM")
process.exit(0)
