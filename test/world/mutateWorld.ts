/**
 * For world tests that change a domain of the running world (scripts/world/mutate, docs/world.md):
 * the synthetic copies of a scenario, picked from the end of the manifest so that each test owns
 * its own (mutate.test.ts takes perfect.com's last, monitors the second-last, history mutate the
 * third-last, verified domains the sixth-last, the preview agreement the twelfth- to fourteenth-last),
 * and the mutate command itself.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { worldEnvFile } from "./env.ts"

const scripts = fileURLToPath(new URL("../../scripts/world/", import.meta.url))
const worldDir = () => dirname(worldEnvFile() ?? "")

/** The `fromEnd`-th last synthetic copy of the scenario `of` (e.g. "perfect.com") in the running world. */
export const syntheticCopy = (of: string, fromEnd: number): string | undefined =>
  (
    JSON.parse(readFileSync(join(worldDir(), "manifest.json"), "utf8")) as {
      scenarios: Array<{ domain: string; synthetic?: boolean; about?: string }>
    }
  ).scenarios
    .filter((s) => s.synthetic === true && s.about === `synthetic copy of ${of}`)
    .at(-fromEnd)?.domain

/**
 * Runs scripts/world/mutate with `args` on the running world: its exit status and output. A child
 * process waited for asynchronously: a test worker blocked in spawnSync cannot answer vitest, which
 * gives up on a worker silent for 60 s.
 */
export const mutateRun = (
  ...args: Array<string>
): Promise<{ readonly status: number | null; readonly out: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(join(scripts, "mutate"), args, {
      timeout: 240_000,
      env: { ...process.env, WORLD_DIR: worldDir() }
    })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.once("error", reject)
    child.once("close", (status) => resolve({ status, out }))
  })

/** Runs scripts/world/mutate with `args` on the running world; its exit status. */
export const mutate = async (...args: Array<string>) => (await mutateRun(...args)).status
