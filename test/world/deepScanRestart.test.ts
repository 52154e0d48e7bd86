/**
 * A deep scan survives the service dying mid-scan: the service runs as a child process on a temp
 * data dir, is SIGKILLed while the job's mail checks wait on mx-slow.com's silent MX, and is started
 * again on the same data dir. The cluster re-delivers the unfinished workflow, which completes; the
 * jobs table shows it was begun twice (resumed, not redone from a fresh request) and finished once.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { UNLIMITED } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { deepScanRow, freePort, sleep } from "../support/processes.ts"
import { SERVER } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

const children: Array<ChildProcess> = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
})

/** Start the service; resolves once /api/health answers. */
const startService = async (env: Record<string, string>, base: string) => {
  const child = spawn(process.execPath, SERVER, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"]
  })
  children.push(child)
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return child
    await sleep(250)
  }
  throw new Error("the service did not start")
}

const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill(signal)
  })

describe("a deep scan across a restart of the service", () => {
  it("is killed mid-scan, resumed after the restart, and completes once", { timeout: 180_000 }, async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-restart-"))
    const env = {
      ...worldEnv(),
      ...UNLIMITED,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "Error",
      // the silent MX holds the mail checks for this long: the window in which the service dies
      SMTP_BANNER_TIMEOUT_MS: "8000"
    }
    const first = await startService(env, base)
    const submitted = await fetch(`${base}/api/scan/deep`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: "mx-slow.com", type: "mail" })
    })
    expect(submitted.status).toBe(202)
    const { scan_id: scanId, status } = (await submitted.json()) as { scan_id: string; status: string }
    expect(status).toBe("running")
    // wait until a runner has begun the workflow, then kill the service under it
    for (let i = 0; i < 80 && !(await deepScanRow(dataDir, scanId))?.started_at; i++) await sleep(100)
    await sleep(1_000)
    await stop(first, "SIGKILL")
    expect(await deepScanRow(dataDir, scanId)).toMatchObject({ status: "running", runs: 1, recorded: 0 })

    const second = await startService(env, base)
    let state: any
    for (let i = 0; i < 240; i++) {
      state = await (await fetch(`${base}/api/scan/deep/${scanId}`)).json()
      if (state.status !== "running") break
      await sleep(250)
    }
    expect(state).toMatchObject({ scan_id: scanId, domain: "mx-slow.com", status: "completed", error: null })
    expect(state.result.scan.checks["smtp-tls"].result.servers[0]).toMatchObject({ status: "unknown" })
    expect(await deepScanRow(dataDir, scanId)).toMatchObject({ status: "completed", runs: 2, recorded: 1 })
    await stop(second, "SIGTERM")
  })
})
