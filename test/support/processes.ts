/** What the tests that start the service (or its runners) as child processes share. */
import { execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect } from "effect"

/** A TCP port on loopback that nothing listens on now (the kernel's pick). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `n` such ports. */
export const freePorts = (n: number) => Promise.all(Array.from({ length: n }, freePort))

/** Whether `port` can be listened on now (127.0.0.1). */
const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/** The first port of the kernel's range for outgoing connections (ip_local_port_range). */
const ephemeralLow = () => {
  try {
    return (
      Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32768
    )
  } catch {
    return 32768
  }
}

/**
 * Ports for a two-runner cluster (scripts/cluster/up): runner i serves HTTP on httpBase+i-1 and
 * talks to the others on runnerBase+i-1, so each base needs the port after it free too. They are
 * taken below the range the kernel hands out for outgoing connections: a port next to a free one
 * from `freePort` (listen on 0) may be a busy connection's own end on a machine busy scanning,
 * and a runner that cannot listen ends the cluster's start.
 */
export const clusterPorts = async () => {
  // Below the outgoing range when it leaves room there (Linux's default starts at 32768), else above.
  const below = ephemeralLow() - 2 > 4096
  const high = below ? ephemeralLow() - 2 : 65_000
  const low = below ? Math.max(1024, high - 12_000) : 61_001
  const taken = new Set<number>()
  const run = async (length: number): Promise<number> => {
    for (;;) {
      const base = low + Math.floor(Math.random() * (high - low - length))
      const ports = Array.from({ length }, (_, i) => base + i)
      if (ports.some((p) => taken.has(p))) continue
      if ((await Promise.all(ports.map(canListen))).every(Boolean)) {
        for (const p of ports) taken.add(p)
        return base
      }
    }
  }
  return { httpBase: await run(2), runnerBase: await run(2), pgPort: await run(1) }
}

/** The rows of a query on a Postgres database, through `psql`, as JSON. */
export const psqlRows = <Row>(url: string, text: string): Array<Row> =>
  JSON.parse(
    execFileSync("psql", [url, "-qtAc", `SELECT coalesce(json_agg(t), '[]') FROM (${text}) t`], {
      encoding: "utf8"
    })
  )

/** A deep scan's row in a running service's cluster database, read beside it (WAL allows it). */
export const deepScanRow = (dataDir: string, scanId: string) =>
  Effect.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`SELECT status, runs, recorded, started_at FROM deep_scans WHERE scan_id = ${scanId}`
    ).pipe(
      Effect.map(
        (rows) =>
          rows[0] as { status: string; runs: number; recorded: number; started_at: number | null } | undefined
      ),
      Effect.provide(SqliteClient.layer({ filename: join(dataDir, "cluster.sqlite"), readonly: true }))
    )
  )

/**
 * Runs a script to its end, its output on the test's; rejects naming it when it fails or outlasts
 * `timeoutMs`. Asynchronous on purpose: a test worker blocked in a synchronous child (execFileSync)
 * for over a minute misses the reply to its own report to vitest, and vitest fails the run with
 * "Timeout calling onTaskUpdate" although every test passed.
 */
export const runScript = (
  file: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  options: { readonly cwd?: string; readonly quiet?: boolean } = {}
) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, {
      env,
      cwd: options.cwd,
      // quiet: stdout dropped (a command that writes its results there), stderr still shown
      stdio: options.quiet ? ["ignore", "ignore", "inherit"] : "inherit",
      timeout: timeoutMs
    })
    child.once("error", reject)
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(" ")}: ${signal ?? `exit ${code}`}`))
    )
  })

/**
 * `scripts/cluster/up` with two runners in `dir` (Postgres and runner i on consecutive ports from
 * the bases given); the cluster's database URL.
 */
export const clusterUp = async (
  scripts: string,
  dir: string,
  ports: { readonly httpBase: number; readonly runnerBase: number; readonly pgPort: number },
  env: NodeJS.ProcessEnv
) => {
  await runScript(
    join(scripts, "up"),
    [
      ...["--runners", "2", "--dir", dir],
      ...["--http-port", String(ports.httpBase), "--runner-port", String(ports.runnerBase)],
      ...["--pg-port", String(ports.pgPort)]
    ],
    env,
    // each runner may take minutes to serve its routes on a loaded machine (scripts/cluster/up waits for /api/health)
    420_000
  )
  return `postgres://postgres@127.0.0.1:${ports.pgPort}/domain_audit`
}

/** `scripts/cluster/down --clean` of what clusterUp started in `dir`. */
export const clusterDown = (scripts: string, dir: string) =>
  runScript(join(scripts, "down"), ["--dir", dir, "--clean"], process.env, 120_000)
