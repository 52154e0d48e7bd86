/**
 * Benchmark: what the cluster costs (docs/scale.md). The same list of the world's synthetic domains
 * through `domain-audit batch` three ways, each after the other against the same world:
 *
 * - in process (no cluster);
 * - `--cluster` with one runner: the batch process alone in the cluster, over Postgres;
 * - `--cluster` with two runners: the batch process and one `domain-audit serve` runner.
 *
 * An unmeasured in-process run first warms the world's resolver with the list, so that the three
 * measured runs find it alike. Each cluster run gets a fresh Postgres database (a throwaway server of `scripts/cluster/postgres`, with
 * `pg_stat_statements` loaded): it prints domains per minute, the CPU of our processes per domain
 * (the batch, and the second runner), Postgres's own CPU per domain, the statements Postgres ran per
 * domain (`pg_stat_statements` calls: one round trip each, the client not pipelining) and the peak
 * RSS of each of our processes. Each measured batch is then run again on its complete output, which
 * only starts and stops the process: its CPU is the fixed cost, also given per domain without it. Needs root (Postgres runs as its package's user) and the world up
 * with synthetic domains; best in an isolated world (docs/world.md), which has its own loopback:
 *
 *   scripts/world/isolated bash -c 'scripts/world/up --synthetic 1000 && npx tsx scripts/bench/cluster.ts 1000 300'
 */
import { execFileSync, spawn } from "node:child_process"
import { chmodSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../../test/support/processes.ts"
import { benchEnv } from "./dnsBaseline.ts"

const [countText = "1000", concurrencyText = "300"] = process.argv.slice(2)
const root = fileURLToPath(new URL("../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "bench-cluster-"))
const env = benchEnv()
const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
  scenarios: Array<{ domain: string; synthetic?: boolean }>
}
const synthetic = manifest.scenarios.filter((s) => s.synthetic === true).map((s) => s.domain)
if (synthetic.length === 0)
  throw new Error("the world has no synthetic domains: scripts/world/up --synthetic 1000")
const domains = synthetic.slice(0, Number(countText))
const list = join(dir, "domains.txt")
writeFileSync(list, domains.join("\n") + "\n")

const pgScript = join(root, "scripts/cluster/postgres")
// Outside `dir` (mode 700): Postgres runs as its package's user, which must reach its directory.
const pgDir = mkdtempSync("/tmp/bench-cluster-pg-")
chmodSync(pgDir, 0o755)
const pgPort = 55499
/** psql as the server's owner, one statement, the first column of its rows. */
const psql = (database: string, sql: string) =>
  execFileSync(
    "runuser",
    [
      "-u",
      "postgres",
      "--",
      pgBin("psql"),
      "-h",
      "127.0.0.1",
      "-p",
      String(pgPort),
      "-At",
      "-d",
      database,
      "-c",
      sql
    ],
    { encoding: "utf8" }
  ).trim()
const pgBin = (name: string) => {
  const versions = readdirSync("/usr/lib/postgresql").sort()
  return `/usr/lib/postgresql/${versions.at(-1)}/bin/${name}`
}

/** Postgres started with pg_stat_statements loaded (a restart after the first start wrote its config). */
const startPostgres = () => {
  const url = execFileSync(pgScript, ["start", pgDir, String(pgPort)], { encoding: "utf8" }).trim()
  const conf = join(pgDir, "data/postgresql.conf")
  if (!readFileSync(conf, "utf8").includes("pg_stat_statements")) {
    writeFileSync(
      conf,
      readFileSync(conf, "utf8") +
        "\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\n"
    )
    execFileSync(pgScript, ["stop", pgDir])
    execFileSync(pgScript, ["start", pgDir, String(pgPort)])
  }
  return url
}

/** The postmaster's CPU, its reaped children's included, plus its live children's (ms). */
const postgresCpuMs = () => {
  const pid = readFileSync(join(pgDir, "data/postmaster.pid"), "utf8").split("\n")[0]!
  const fields = (p: string) => readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ")
  const ticks = 100
  const own = fields(pid)
  let total = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", pid], { encoding: "utf8" })
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean)
  for (const child of children) {
    try {
      const f = fields(child)
      total += Number(f[11]) + Number(f[12])
    } catch {
      // gone in the meantime: its time is in the postmaster's cutime
    }
  }
  return (total * 1000) / ticks
}

/** CPU (user + system, ms) and peak RSS (MB) of a live process, from /proc. */
const processFigures = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024
  return { cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / 100, peakRssMb: hwm }
}

/** `domain-audit batch`, under /usr/bin/time: wall ms, CPU ms and maximum RSS of the batch's node. */
const batch = (name: string, extraEnv: Record<string, string>, args: Array<string>) =>
  new Promise<{ wallMs: number; cpuMs: number; peakRssMb: number; summary: string }>((resolve, reject) => {
    const out = join(dir, `${name}.jsonl`)
    const timeFile = join(dir, `${name}.time`)
    const started = performance.now()
    const child = spawn(
      "/usr/bin/time",
      [
        "-f",
        "%U %S %M",
        "-o",
        timeFile,
        process.execPath,
        `--max-old-space-size=${process.env.MAX_HEAP_MB ?? "384"}`,
        join(root, "dist/cli/main.mjs"),
        "batch",
        list,
        "-o",
        out,
        "-c",
        concurrencyText,
        ...args
      ],
      { cwd: root, env: { ...process.env, ...env, ...extraEnv }, stdio: ["ignore", "ignore", "pipe"] }
    )
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    child.on("exit", (code) => {
      const wallMs = performance.now() - started
      if (code !== 0) return reject(new Error(`${name}: batch exited ${code}\n${stderr.slice(-2000)}`))
      const [user, sys, maxKb] = readFileSync(timeFile, "utf8")
        .trim()
        .split("\n")
        .at(-1)!
        .split(" ")
        .map(Number)
      resolve({
        wallMs,
        cpuMs: (user! + sys!) * 1000,
        peakRssMb: maxKb! / 1024,
        summary: stderr.split("\n").find((l) => l.startsWith("batch: ") && l.includes("scanned")) ?? ""
      })
    })
  })

/** A `domain-audit serve` runner of the cluster at `url`, healthy. */
const startRunner = async (url: string) => {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${process.env.MAX_HEAP_MB ?? "384"}`, join(root, "dist/cli/main.mjs"), "serve"],
    {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        CLUSTER_DATABASE_URL: url,
        HOST: "127.0.0.1",
        PORT: String(port),
        RUNNER_HOST: "127.0.0.1",
        RUNNER_PORT: String(await freePort()),
        DATA_DIR: mkdtempSync(join(dir, "runner-"))
      },
      stdio: ["ignore", "ignore", "inherit"]
    }
  )
  for (let i = 0; i < 480; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return child
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill("SIGTERM")
  throw new Error("the second runner did not become healthy")
}

interface Row {
  readonly name: string
  readonly wallMs: number
  readonly cpuMs: number
  /** The batch process's CPU to start and stop with nothing to scan (the same run again). */
  readonly fixedCpuMs: number
  readonly peakRssMb: string
  readonly pgCpuMs: number
  readonly statements: number
  readonly summary: string
}

const main = async () => {
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" })
  console.log(
    `${domains.length} synthetic domains, full scans, concurrency ${concurrencyText}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`
  )
  const rows: Array<Row> = []
  // Unmeasured: the world's resolver warmed with these domains, so every measured run finds it alike.
  await batch("warm-up", {}, [])
  const inProcess = await batch("in-process", {}, [])
  rows.push({
    name: "in process",
    ...inProcess,
    fixedCpuMs: (await batch("in-process", {}, [])).cpuMs,
    peakRssMb: inProcess.peakRssMb.toFixed(0),
    pgCpuMs: 0,
    statements: 0
  })
  const url = startPostgres()
  for (const runners of [1, 2]) {
    const database = `bench_${runners}`
    psql("postgres", `DROP DATABASE IF EXISTS ${database}`)
    psql("postgres", `CREATE DATABASE ${database}`)
    psql(database, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    const dbUrl = url.replace(/\/[^/]*$/, `/${database}`)
    const second = runners === 2 ? await startRunner(dbUrl) : undefined
    const secondBefore = second ? processFigures(second.pid!) : undefined
    psql(database, "SELECT pg_stat_statements_reset()")
    const pgBefore = postgresCpuMs()
    const clusterEnv = {
      CLUSTER_DATABASE_URL: dbUrl,
      RUNNER_HOST: "127.0.0.1",
      RUNNER_PORT: String(await freePort())
    }
    const run = await batch(`cluster-${runners}`, clusterEnv, ["--cluster"])
    const pgCpuMs = postgresCpuMs() - pgBefore
    const statements = Number(
      psql(
        database,
        `SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '${database}') AND query NOT LIKE '%pg_stat_statements%'`
      )
    )
    const secondAfter = second ? processFigures(second.pid!) : undefined
    // Its output complete, the same run again only starts (joining the cluster) and stops.
    const fixedCpuMs = (await batch(`cluster-${runners}`, clusterEnv, ["--cluster"])).cpuMs
    if (second) {
      second.kill("SIGTERM")
      await new Promise((r) => second.on("exit", r))
    }
    rows.push({
      name: `--cluster, ${runners} runner${runners > 1 ? "s" : ""}`,
      wallMs: run.wallMs,
      cpuMs: run.cpuMs + (secondAfter && secondBefore ? secondAfter.cpuMs - secondBefore.cpuMs : 0),
      fixedCpuMs,
      peakRssMb: run.peakRssMb.toFixed(0) + (secondAfter ? ` + ${secondAfter.peakRssMb.toFixed(0)}` : ""),
      pgCpuMs,
      statements,
      summary: run.summary
    })
  }
  execFileSync(pgScript, ["stop", pgDir])
  const base = rows[0]!
  // "less start": the CPU per domain without the batch process's fixed cost of starting and stopping
  // (the cluster's runner starts with more to load and shards to claim), which a short list magnifies.
  console.log(
    "run                      domains/min  CPU ms/domain (ours)  vs in process  start+stop CPU s  less start ms/domain  vs in process  Postgres CPU ms/domain  statements/domain  peak RSS MB"
  )
  const lessStart = (r: Row) => (r.cpuMs - r.fixedCpuMs) / domains.length
  for (const r of rows) {
    const perDomain = r.cpuMs / domains.length
    console.log(
      [
        r.name.padEnd(24),
        ((domains.length * 60_000) / r.wallMs).toFixed(0).padStart(11),
        perDomain.toFixed(1).padStart(21),
        `${(perDomain / (base.cpuMs / domains.length)).toFixed(2)}x`.padStart(14),
        (r.fixedCpuMs / 1000).toFixed(2).padStart(17),
        lessStart(r).toFixed(1).padStart(21),
        `${(lessStart(r) / lessStart(base)).toFixed(2)}x`.padStart(14),
        (r.pgCpuMs / domains.length).toFixed(1).padStart(23),
        (r.statements / domains.length).toFixed(1).padStart(18),
        r.peakRssMb.padStart(12)
      ].join(" ")
    )
  }
  for (const r of rows) console.log(`${r.name}: ${r.summary}`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
