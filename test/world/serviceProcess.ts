/**
 * The service as a child process on the world, for the operations tests (metrics scraped by
 * Prometheus, traces sent to a receiver, SIGTERM): the bundled server (test/support/bundle.ts) on free ports and
 * a temp data dir, resolved once /api/health answers; its stdout kept for the log assertions.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { UNLIMITED } from "../http/harness.ts"
import { freePort, sleep } from "../support/processes.ts"
import { worldEnv } from "./env.ts"
import { SERVER } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

export interface Service {
  readonly child: ChildProcess
  readonly base: string
  readonly healthBase: string
  readonly env: Record<string, string>
  /** Every line written to stdout so far. */
  readonly stdout: () => string
  /** Resolves with the exit code (or 128 + signal) once the process ended. */
  readonly exited: Promise<number>
}

/** Settings for a service on free ports over `dataDir` (a new temp dir by default), plus `extra`. */
export const serviceEnv = async (extra: Record<string, string> = {}, dataDir?: string) => {
  const [port, healthPort] = [await freePort(), await freePort()]
  return {
    ...worldEnv(),
    ...UNLIMITED,
    HOST: "127.0.0.1",
    PORT: String(port),
    HEALTH_PORT: String(healthPort),
    DATA_DIR: dataDir ?? mkdtempSync(join(tmpdir(), "domain-audit-ops-")),
    LOG_LEVEL: "Info",
    ...extra
  }
}

export const startService = async (env: Record<string, string>): Promise<Service> => {
  const child = spawn(process.execPath, SERVER, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"]
  })
  let out = ""
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? 128 + (signal === "SIGKILL" ? 9 : 15)))
  )
  const base = `http://127.0.0.1:${env.PORT}`
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false
    )
    if (ok)
      return {
        child,
        base,
        healthBase: `http://127.0.0.1:${env.HEALTH_PORT}`,
        env,
        stdout: () => out,
        exited
      }
    await sleep(250)
  }
  child.kill("SIGKILL")
  throw new Error("the service did not start")
}
