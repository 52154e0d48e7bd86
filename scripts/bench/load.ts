/**
 * Load test of the public edge (issue 12): N concurrent clients on a scan endpoint and on
 * /dns/lookup, while /health is probed every 100 ms. Prints per phase the status counts (and
 * resets / timeouts, which should be none), p50/p99 latency, the /health p50/p99/max during the
 * load, and the server's peak RSS. Goals: every request answered with 200, 429 or 503; /health p99
 * under 100 ms; RSS under 512 MB.
 *
 * Loopback only and bounded: each phase runs `seconds`, each request times out after 30 s, and the
 * script stops the server it started. Without a URL it starts `src/main.ts` on a free loopback port
 * with the world's settings (data/world/world.env, or the running world's) so the scans do real work.
 *
 * Each phase runs twice: once as one client (the per-client token bucket answers most requests with
 * 429) and once as `clients` distinct clients behind a trusted proxy (X-Forwarded-For, with
 * TRUSTED_PROXIES=127.0.0.1), which is what exercises the global gate (503 beyond it).
 *
 *   npx tsx scripts/bench/load.ts [seconds=15] [clients=500] [url]
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { worldEnv } from "../../test/world/env.ts"

const seconds = Number(process.argv[2] ?? 15)
const clients = Number(process.argv[3] ?? 500)
const given = process.argv[4]
const REQUEST_TIMEOUT_MS = 30_000

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

const startServer = async (): Promise<{ base: string; child: ChildProcess }> => {
  const port = await freePort()
  const env = Object.fromEntries(
    Object.entries(worldEnv()).map(([k, v]) => [k, v.replace(/^'(.*)'$/, "$1").replace(/^"(.*)"$/, "$1")])
  )
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: {
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-load-")),
      TRUSTED_PROXIES: "127.0.0.1/32",
      LOG_LEVEL: "Error"
    },
    stdio: ["ignore", "inherit", "inherit"]
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    const up = await get(`${base}/api/health`, {}).then(
      (r) => r.status === 200,
      () => false
    )
    if (up) return { base, child }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill("SIGTERM")
  throw new Error("the server did not come up within 20 s")
}

interface Result {
  readonly status: number | string
  readonly ms: number
}

const get = (url: string, headers: Record<string, string>, agent?: http.Agent) =>
  new Promise<Result>((resolve) => {
    const started = performance.now()
    const req = http.get(url, { headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume()
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }))
      res.on("error", (e: NodeJS.ErrnoException) =>
        resolve({ status: e.code ?? "error", ms: performance.now() - started })
      )
    })
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })))
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ status: e.code ?? "error", ms: performance.now() - started })
    )
  })

/** The /health prober: one GET every 100 ms on a keep-alive connection; latencies (Infinity if not 200). */
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads")
const http = require("node:http")
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const out = []
const timer = setInterval(() => {
  const t = performance.now()
  http.get(workerData, { agent, timeout: 30000 }, (res) => {
    res.resume()
    res.on("end", () => out.push(res.statusCode === 200 ? performance.now() - t : Infinity))
  }).on("error", () => out.push(Infinity))
}, 100)
parentPort.on("message", () => { clearInterval(timer); agent.destroy(); parentPort.postMessage(out) })
`

const pct = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const rssMb = (pid: number | undefined) => {
  if (pid === undefined) return NaN
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

const phase = async (base: string, pid: number | undefined, path: string, forwarded: boolean) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients })
  // /health is probed from its own thread: this one is busy being 500 clients, and its event loop
  // delay would otherwise be counted as the server's.
  const prober = new Worker(PROBER, { eval: true, workerData: `${base}/api/health` })
  const deadline = Date.now() + seconds * 1000
  const results: Array<Result> = []
  let peakRss = rssMb(pid)
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid))
  }, 100)
  const client = async (i: number) => {
    const headers = forwarded
      ? { "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
      : {}
    while (Date.now() < deadline) results.push(await get(`${base}${path}`, headers, agent))
  }
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i + 1)))
  clearInterval(sampler)
  agent.destroy()
  const health = await new Promise<Array<number>>((resolve) => {
    prober.once("message", resolve)
    prober.postMessage("stop")
  })
  await prober.terminate()
  const counts: Record<string, number> = {}
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1
  const ms = results.map((r) => r.ms).sort((a, b) => a - b)
  const ok = results
    .filter((r) => r.status === 200)
    .map((r) => r.ms)
    .sort((a, b) => a - b)
  const h = health.sort((a, b) => a - b)
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n))
  console.log(
    [
      `${path} ${forwarded ? `as ${clients} forwarded clients` : "as one client"}, ${clients} concurrent, ${seconds} s`,
      `  requests ${results.length} (${f(results.length / seconds)}/s), statuses ${JSON.stringify(counts)}`,
      `  latency all p50 ${f(pct(ms, 50))} ms p99 ${f(pct(ms, 99))} ms; 200s p50 ${f(pct(ok, 50))} ms p99 ${f(pct(ok, 99))} ms`,
      `  /health ${h.length} probes p50 ${f(pct(h, 50))} ms p99 ${f(pct(h, 99))} ms max ${f(h[h.length - 1] ?? NaN)} ms`,
      `  server RSS peak ${f(peakRss)} MB`
    ].join("\n")
  )
}

const main = async () => {
  let base = given
  let child: ChildProcess | undefined
  if (base === undefined) ({ base, child } = await startServer())
  const host = new URL(base).hostname
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) throw new Error(`loopback only: refusing ${base}`)
  try {
    console.log(`server ${base}, RSS at start ${rssMb(child?.pid).toFixed(1)} MB`)
    for (const path of ["/api/email/check?domain=perfect.com", "/api/dns/lookup?domain=perfect.com"])
      for (const forwarded of [false, true]) await phase(base, child?.pid, path, forwarded)
  } finally {
    child?.kill("SIGTERM")
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
