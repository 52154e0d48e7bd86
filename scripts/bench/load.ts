/**
 * Load test of the public edge: N concurrent clients on a scan endpoint and on
 * /dns/lookup, while /health is probed every 100 ms. Prints per phase the status counts (and
 * resets / timeouts, which should be none), p50/p99 latency, the /health p50/p99/max during the
 * load, and the server's peak RSS. Goals: every request answered with 200, 429 or 503; /health p99
 * under 100 ms; RSS under 512 MB.
 *
 * Loopback only and bounded: each phase runs `seconds`, each request times out after 30 s, and the
 * script stops the server it started. Without a URL it starts the service as `npm start` does on a free loopback port
 * with the world's settings (data/world/world.env, or the running world's) so the scans do real work.
 *
 * Each phase runs twice: once as one client (the per-client token bucket answers most requests with
 * 429) and once as `clients` distinct clients behind a trusted proxy (X-Forwarded-For, with
 * TRUSTED_PROXIES=127.0.0.1), which is what exercises the global gate (503 beyond it).
 *
 *   npx tsx scripts/bench/load.ts [seconds=15] [clients=500] [url]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { worldEnv } from "../../test/world/env.ts"

const seconds = Number(process.argv[2] ?? 15)
const clients = Number(process.argv[3] ?? 500)
const given = process.argv[4]
const here = new URL(".", import.meta.url).pathname

/** How many CPUs `taskset` can hand out (1 without it): with two or more, server and crowd get their own. */
const cpus = (() => {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" })
    return Number(execFileSync("nproc").toString())
  } catch {
    return 1
  }
})()
const pinning = cpus >= 2
/** Whether `nice` may raise a priority here (root). */
const canRaisePriority = (() => {
  try {
    execFileSync("nice", ["-n", "-10", "true"], { stdio: "ignore" })
    return process.getuid?.() === 0
  } catch {
    return false
  }
})()
const REQUEST_TIMEOUT_MS = 30_000

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

const loopDelayFile = join(mkdtempSync(join(tmpdir(), "domain-audit-load-delay-")), "delay.txt")

const startServer = async (): Promise<{ base: string; healthUrl: string; child: ChildProcess }> => {
  const port = await freePort()
  const healthPort = await freePort()
  const env = Object.fromEntries(
    Object.entries(worldEnv()).map(([k, v]) => [k, v.replace(/^'(.*)'$/, "$1").replace(/^"(.*)"$/, "$1")])
  )
  // What `npm start` runs: the bundle (package.json "build"), with the loop-delay reporter preloaded.
  execFileSync("npm", ["run", "-s", "build"], { stdio: "inherit" })
  const node = [
    process.execPath,
    // e.g. SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (not allowed in NODE_OPTIONS)
    ...(process.env.SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean),
    "--enable-source-maps",
    // as `npm start` (bin/domain-audit.mjs), with its default MAX_HEAP_MB, young generation and malloc arenas
    `--max-old-space-size=${process.env.MAX_HEAP_MB ?? 384}`,
    "--max-semi-space-size=16",
    "--import",
    join(here, "loopDelay.mjs"),
    "dist/main.mjs"
  ]
  const [command, ...args] = pinning ? ["taskset", "-c", "0", ...node] : node
  const child = spawn(command!, args, {
    env: {
      MALLOC_ARENA_MAX: "2",
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-load-")),
      TRUSTED_PROXIES: "127.0.0.1/32",
      LOOP_DELAY_FILE: loopDelayFile,
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
    if (up) return { base, healthUrl: `http://127.0.0.1:${healthPort}/health`, child }
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

/**
 * The /health prober, a process of its own: every 100 ms one GET on a keep-alive connection, one
 * on a new connection (\`agent: false\`), and, when the server has one, one on a new connection to
 * its HEALTH_PORT. With the keep-alive latencies it reports the three slowest and when they were sent. It prints "R" once its keep-alive connection answered (so
 * that connection is not queued behind the crowd's 500 new ones), and on stdin's end the latencies
 * (Infinity if not 200) as JSON.
 */
const PROBER = `
const http = require("node:http")
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const out = { keepAlive: [], fresh: [], healthPort: [], slowest: [] }
const note = (kind, t, ms) => {
  out[kind].push(ms)
  if (kind === "keepAlive") out.slowest.push([ms, Date.now() - (performance.now() - t)])
}
const probe = (kind, a, url = process.argv[1]) => {
  const t = performance.now()
  http.get(url, { agent: a, timeout: 30000 }, (res) => {
    res.resume()
    res.on("end", () => note(kind, t, res.statusCode === 200 ? performance.now() - t : Infinity))
  }).on("error", () => note(kind, t, Infinity))
}
http.get(process.argv[1], { agent }, (res) => { res.resume(); res.on("end", () => process.stdout.write("R")) })
const timer = setInterval(() => {
  probe("keepAlive", agent)
  probe("fresh", false)
  if (process.argv[2]) probe("healthPort", false, process.argv[2])
}, 100)
process.stdin.resume()
process.stdin.on("end", () => {
  clearInterval(timer)
  agent.destroy()
  out.slowest = out.slowest.sort((a, b) => b[0] - a[0]).slice(0, 3)
  process.stdout.write(JSON.stringify(out))
})
`

/** Lines the server's loop-delay reporter wrote within [from, to]: [p50, p99, max, cpu%, heap MB, buffers MB, ms waiting for a CPU] per second. */
const loopDelays = (from: number, to: number) => {
  try {
    return readFileSync(loopDelayFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").map(Number))
      .filter(([at]) => at! > from && at! <= to + 1000)
      .map(([, ...rest]) => rest)
  } catch {
    return []
  }
}

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

const phase = async (
  base: string,
  healthUrl: string | undefined,
  pid: number | undefined,
  path: string,
  forwarded: boolean
) => {
  // maxFreeSockets: one connection per client, as 500 real clients hold theirs. With the default
  // (256), a burst of answers closed the surplus, the crowd reconnected, and new connections waited
  // in the accept queue (libuv accepts one per loop iteration) with /health's behind them.
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients })
  // Not pinned with the crowd (a child inherits this process's CPUs): its delays would be its own.
  const probe = [process.execPath, "-e", PROBER, `${base}/api/health`, ...(healthUrl ? [healthUrl] : [])]
  const pinned = pinning ? ["taskset", "-c", `0-${cpus - 1}`, ...probe] : probe
  // Ahead of the crowd for a CPU (it is idle between probes, so this costs the server nothing): its
  // own waits for a CPU would otherwise be counted as the server's latency.
  const [probeCommand, ...probeArgs] = canRaisePriority ? ["nice", "-n", "-10", ...pinned] : pinned
  const prober = spawn(probeCommand!, probeArgs, {
    stdio: ["pipe", "pipe", "inherit"]
  })
  const proberOut: Array<Buffer> = []
  await new Promise<void>((ready) =>
    prober.stdout!.on("data", (b: Buffer) => {
      if (proberOut.length === 0) ready()
      proberOut.push(b)
    })
  )
  const started = Date.now()
  const deadline = started + seconds * 1000
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
  const health = await new Promise<{
    keepAlive: Array<number>
    fresh: Array<number>
    healthPort: Array<number>
    slowest: Array<[number, number]>
  }>((resolve) => {
    prober.once("exit", () => resolve(JSON.parse(Buffer.concat(proberOut).toString().slice(1))))
    prober.stdin!.end()
  })
  const delays = loopDelays(started, Date.now())
  const counts: Record<string, number> = {}
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1
  const ms = results.map((r) => r.ms).sort((a, b) => a - b)
  const ok = results
    .filter((r) => r.status === 200)
    .map((r) => r.ms)
    .sort((a, b) => a - b)
  const keep = health.keepAlive.sort((a, b) => a - b)
  const fresh = health.fresh.sort((a, b) => a - b)
  const own = health.healthPort.sort((a, b) => a - b)
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : String(n))
  // The server's own count of its refusals since start, by reason (cumulative over the phases).
  const refused = await fetch(`${base}/api/health`)
    .then((r) => r.json() as Promise<{ services?: { admission?: { refused?: unknown } } }>)
    .then((body) => JSON.stringify(body.services?.admission?.refused ?? "not reported"))
    .catch(() => "not read")
  console.log(
    [
      `${path} ${forwarded ? `as ${clients} forwarded clients` : "as one client"}, ${clients} concurrent, ${seconds} s`,
      `  requests ${results.length} (${f(results.length / seconds)}/s), statuses ${JSON.stringify(counts)}`,
      `  refused since start, by the server's count: ${refused}`,
      `  latency all p50 ${f(pct(ms, 50))} ms p99 ${f(pct(ms, 99))} ms; 200s p50 ${f(pct(ok, 50))} ms p99 ${f(pct(ok, 99))} ms`,
      `  /health keep-alive ${keep.length} probes p50 ${f(pct(keep, 50))} ms p99 ${f(pct(keep, 99))} ms max ${f(keep[keep.length - 1] ?? NaN)} ms`,
      `  /health new connection ${fresh.length} probes p50 ${f(pct(fresh, 50))} ms p99 ${f(pct(fresh, 99))} ms max ${f(fresh[fresh.length - 1] ?? NaN)} ms`,
      `  slowest keep-alive probes ${health.slowest.map(([ms, at]) => `${f(ms)} ms at +${((at - started) / 1000).toFixed(1)} s`).join(", ")}`,
      own.length === 0
        ? "  HEALTH_PORT: not probed (a server given by URL)"
        : `  /health on HEALTH_PORT, new connection ${own.length} probes p50 ${f(pct(own, 50))} ms p99 ${f(pct(own, 99))} ms max ${f(own[own.length - 1] ?? NaN)} ms`,
      delays.length === 0
        ? "  server event loop: not measured (a server given by URL)"
        : `  server event loop delay per second: p99 worst ${Math.max(...delays.map((d) => d[1]!))} ms, max ${Math.max(...delays.map((d) => d[2]!))} ms, median of p99s ${[...delays.map((d) => d[1]!)].sort((a, b) => a - b)[delays.length >> 1]} ms; CPU ${Math.min(...delays.map((d) => d[3]!))}-${Math.max(...delays.map((d) => d[3]!))}% of a core; waited for a CPU up to ${Math.max(...delays.map((d) => d[6] ?? 0))} ms in a second (other processes on its core)`,
      ...(process.env.LOOP_DELAY_EVERY_MS === undefined
        ? []
        : [
            `  server event loop max delay per ${process.env.LOOP_DELAY_EVERY_MS} ms over the first second: ${delays
              .slice(0, Math.ceil(1000 / Number(process.env.LOOP_DELAY_EVERY_MS)))
              .map((d) => `${d[2]} (waited ${d[6]})`)
              .join(", ")}`
          ]),
      `  server RSS peak ${f(peakRss)} MB${delays.length === 0 ? "" : `, JS heap peak ${Math.max(...delays.map((d) => d[4]!))} MB, buffers peak ${Math.max(...delays.map((d) => d[5]!))} MB`}`
    ].join("\n")
  )
}

const main = async () => {
  let base = given
  let child: ChildProcess | undefined
  let healthUrl: string | undefined
  if (base === undefined) ({ base, healthUrl, child } = await startServer())
  const host = new URL(base).hostname
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) throw new Error(`loopback only: refusing ${base}`)
  try {
    if (pinning && child !== undefined)
      execFileSync("taskset", ["-a", "-p", "-c", `1-${cpus - 1}`, String(process.pid)], { stdio: "ignore" })
    console.log(
      `server ${base}, RSS at start ${rssMb(child?.pid).toFixed(1)} MB${pinning && child ? ", server on CPU 0, crowd on the others" : ""}`
    )
    for (const path of ["/api/email/check?domain=perfect.com", "/api/dns/lookup?domain=perfect.com"])
      for (const forwarded of [false, true]) await phase(base, healthUrl, child?.pid, path, forwarded)
  } finally {
    child?.kill("SIGTERM")
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
