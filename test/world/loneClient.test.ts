/**
 * A client that sends one request at a time is never refused with 503, whatever else loads the
 * machine and also in the first seconds after start-up: shedding decides on the process's own
 * saturation (Gatekeeper.ts), not on wall-clock event-loop measures that a busy neighbour or V8's
 * start-up compilation inflate.
 *
 * Two CPU burners (child processes spinning) load both cores; the service starts as a child
 * process with the production shedding settings; from the moment `/health` first answers 200, one
 * client sends 200 costly requests one after another (quick scans, badges and PDFs of perfect.com,
 * whose scan is cached after the first, so the test stays short). None may be a 503.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"
import { freePort, sleep } from "../support/processes.ts"
import { SERVER } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

const children: Array<ChildProcess> = []
const stopAll = () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}
afterAll(stopAll)

/** A process that spins on one core until killed (bounded: it ends itself after `ms`). */
const burner = (ms: number) => {
  const child = spawn(
    process.execPath,
    ["-e", `const end = Date.now() + ${ms}; while (Date.now() < end) {}`],
    { stdio: "ignore" }
  )
  children.push(child)
  return child
}

const REQUESTS = 200
const paths = (i: number) =>
  i % 20 === 10
    ? "/api/pdf/perfect.com"
    : i % 5 === 3
      ? "/api/badge/perfect.com"
      : "/api/scan/quick?domain=perfect.com"

describe("a lone client on a loaded machine", () => {
  it("gets no 503 in 200 costly requests one after another, from the moment /health first answers 200", async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    burner(150_000)
    burner(150_000)
    const service = spawn(process.execPath, SERVER, {
      cwd: root,
      env: {
        ...process.env,
        ...worldEnv(),
        HOST: "127.0.0.1",
        PORT: String(port),
        HEALTH_PORT: "0",
        RUNNER_PORT: String(await freePort()),
        DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-lone-")),
        // The client's own bucket is not what this test is about: 200 requests fit in it.
        RATE_COSTLY_BURST: "1000",
        LOG_LEVEL: "Warn"
      },
      stdio: ["ignore", "ignore", "inherit"]
    })
    children.push(service)
    try {
      let healthy = false
      for (let i = 0; i < 1_200 && !healthy; i++) {
        if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}`)
        healthy = await fetch(`${base}/api/health`).then(
          (r) => r.status === 200,
          () => false
        )
        if (!healthy) await sleep(50)
      }
      expect(healthy).toBe(true)
      const statuses = new Map<number, number>()
      const refused: Array<string> = []
      for (let i = 0; i < REQUESTS; i++) {
        const response = await fetch(`${base}${paths(i)}`)
        await response.arrayBuffer()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        if (response.status === 503) refused.push(`${i} ${paths(i)}`)
      }
      expect(refused).toEqual([])
      expect(statuses.get(200)).toBe(REQUESTS)
      // and /health's count agrees: nothing shed
      const health = (await (await fetch(`${base}/api/health`)).json()) as {
        services: { admission: { refused: Record<string, number> } }
      }
      expect(health.services.admission.refused).toEqual({})
    } finally {
      stopAll()
    }
  }, 240_000)
})
