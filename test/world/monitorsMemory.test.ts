/**
 * What keeps many monitors on one process small (docs/monitoring.md, "Memory"):
 *
 * - a run sleeping until its due time waits as a message in the cluster's storage, not as a timer in
 *   memory: the first runs of 12 monitors due within a week each store their wake-up;
 * - at most MONITOR_SCANS_IN_FLIGHT runs scan at once: the 12 asked to run now together, with a
 *   bound of 2, never have more than 2 runs between claim and finish (`monitor_runs`), and all 12
 *   run.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { UNLIMITED } from "../http/harness.ts"
import { freePort, sleep } from "../support/processes.ts"
import { worldEnv } from "./env.ts"
import { SERVER } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-monitors-memory-"))
const BOUND = 2
const MONITORS = 12
let service: ChildProcess | undefined

afterAll(() => {
  if (service && service.exitCode === null) service.kill("SIGKILL")
})

const domains = (
  JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")) as {
    scenarios: Array<{ domain: string; synthetic?: boolean; mutatedAs?: string }>
  }
).scenarios
  .filter((s) => s.synthetic === true && s.mutatedAs === undefined)
  .map((s) => s.domain)

const rows = (text: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(text)).pipe(
      Effect.provide(SqliteClient.layer({ filename: join(dataDir, "cluster.sqlite"), readonly: true }))
    )
  ) as Promise<Array<Record<string, number>>>

describe("many monitors on one process", () => {
  it("holds no sleeping run in memory and bounds the scans in flight", { timeout: 300_000 }, async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    service = spawn(process.execPath, SERVER, {
      cwd: root,
      env: {
        ...process.env,
        ...worldEnv(),
        ...UNLIMITED,
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: "Error",
        MONITOR_MIN_INTERVAL: "PT1S",
        MONITOR_SCANS_IN_FLIGHT: String(BOUND)
      },
      stdio: ["ignore", "ignore", "inherit"]
    })
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false
        )
      )
        break
      expect(i).toBeLessThan(240)
      await sleep(250)
    }
    const create = async (domain: string) => {
      const r = await fetch(`${base}/api/monitors`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain, every: "P7D", alerts: [] })
      })
      expect(r.status).toBe(201)
      return ((await r.json()) as { id: string }).id
    }
    const count = async (text: string) => (await rows(text))[0]!.n!

    // Due within the week: each first run starts, asks for its durable wake-up and suspends.
    const ids: Array<string> = []
    for (let i = 0; i < MONITORS; i++) ids.push(await create(domains[i % domains.length]!))
    const wakeUps = () =>
      count("SELECT count(*) AS n FROM cluster_messages WHERE entity_type = 'Workflow/-/DurableClock'")
    for (let i = 0; i < 240 && (await wakeUps()) < MONITORS; i++) await sleep(250)
    expect(await wakeUps()).toBe(MONITORS)
    // All due at once: a manual run of each, asked together.
    const asked = await Promise.all(
      ids.map((id) => fetch(`${base}/api/monitors/${id}/run`, { method: "POST" }).then((r) => r.status))
    )
    expect(asked.every((s) => s === 202)).toBe(true)
    const finished = () => count("SELECT count(*) AS n FROM monitor_runs WHERE finished_at IS NOT NULL")
    for (let i = 0; i < 480 && (await finished()) < MONITORS; i++) await sleep(250)
    expect(await finished()).toBeGreaterThanOrEqual(MONITORS)

    // The most runs between claim and finish at any one moment: at each claim, the runs claimed
    // at or before it and not yet finished.
    const [{ most }] = (await rows(
      `SELECT max((SELECT count(*) FROM monitor_runs o
                   WHERE o.started_at <= r.started_at AND (o.finished_at IS NULL OR o.finished_at > r.started_at)))
              AS most
       FROM monitor_runs r WHERE r.finished_at IS NOT NULL`
    )) as [{ most: number }]
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(BOUND)
  })
})
