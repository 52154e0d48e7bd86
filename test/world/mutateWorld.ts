/**
 * For world tests that change a domain of the running world (scripts/world/mutate, docs/world.md):
 * the synthetic copies of a scenario, picked from the end of the manifest so that each test owns
 * its own (mutate.test.ts takes perfect.com's last, monitors the second-last, history mutate the
 * third-last, verified domains the sixth-last, the preview agreement the twelfth- to fourteenth-last),
 * and the mutate command itself.
 */
import { spawnSync } from "node:child_process"
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

/** Runs scripts/world/mutate with `args` on the running world; its exit status. */
export const mutate = (...args: Array<string>) =>
  spawnSync(join(scripts, "mutate"), args, {
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, WORLD_DIR: worldDir() }
  }).status
