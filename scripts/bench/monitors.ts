/**
 * Benchmark: many monitors on one service process against the world. Starts the service (a child
 * process on a fresh DATA_DIR, one runner with SQLite), creates N monitors over the world's
 * synthetic domains at one interval (their phases spread over it, as the service spreads them),
 * then for the given minutes samples the runs finished (the cluster database's `monitor_runs`) and
 * the service's RSS. Prints the scans per minute sustained against the rate the schedule asks
 * (N / interval), the runs late by more than one interval, the RSS (current and peak, the
 * kernel's VmRSS and VmHWM), and the history's bytes per entry when the history is kept.
 *   npx tsx scripts/bench/monitors.ts [monitors=10000] [every=PT10M] [minutes=10]
 * Needs the world up with synthetic domains (scripts/world/up --synthetic 200). Figures: docs/bench.md.
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
import { benchEnv } from "./dnsBaseline.ts"

const [countText = "10000", everyText = "PT10M", minutesText = "10"] = process.argv.slice(2)
const count = Number(countText)
const every = parseEvery(everyText)
if (!("ms" in every)) throw new Error(every.error)
const minutes = Number(minutesText)
const root = fileURLToPath(new URL("../../", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "bench-monitors-"))
const env = benchEnv()

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

const port = await freePort()
const base = `http://127.0.0.1:${port}/api`
const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    ...env,
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "Warn",
    MONITOR_MIN_INTERVAL: "PT1S",
    RATE_COSTLY_BURST: "100000000",
    RATE_CHEAP_BURST: "100000000",
    ADMISSION_MAX_CPU_PERCENT: "100000"
  },
  stdio: ["ignore", "ignore", "inherit"]
})
process.on("exit", () => child.kill("SIGKILL"))
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false
    )
  )
    break
  if (i > 240) throw new Error("the service did not start")
  await sleep(250)
}

// Create the monitors, 16 requests at a time.
const createdAt = Date.now()
let next = 0
let refused = 0
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let i = next++; i < count; i = next++) {
      for (;;) {
        const r = await fetch(`${base}/monitors`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain: domains[i % domains.length], every: everyText, alerts: [] })
        })
        if (r.status === 201) break
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
console.log(
  `created ${count} monitors in ${(createMs / 1000).toFixed(1)} s (${Math.round((count / createMs) * 1000)}/s; ${refused} answers 503/429, retried)`
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
const finished = async () =>
  (await one(cluster, "SELECT count(*) AS n FROM monitor_runs WHERE finished_at IS NOT NULL"))!.n!
const late = async () =>
  (await one(cluster, "SELECT count(*) AS n FROM monitor_runs WHERE started_at - due_at > ?", every.ms))!.n!

const expected = (count / every.ms) * 60_000
console.log(`the schedule asks ${expected.toFixed(0)} scans/min`)
console.log("minute  scans/min  RSS MB  peak MB")
const start = Date.now()
let before = await finished()
for (let minute = 1; minute <= minutes; minute++) {
  await sleep(start + minute * 60_000 - Date.now())
  const now = await finished()
  const { rss, peak } = memory(child.pid!)
  console.log(
    `${String(minute).padStart(6)}  ${String(now - before).padStart(9)}  ${rss.toFixed(0).padStart(6)}  ${peak.toFixed(0).padStart(7)}`
  )
  before = now
}
const total = await finished()
console.log(
  `sustained: ${((total / (Date.now() - start)) * 60_000).toFixed(0)} scans/min over ${minutes} min` +
    ` (asked ${expected.toFixed(0)}); runs started more than one interval late: ${await late()}`
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
