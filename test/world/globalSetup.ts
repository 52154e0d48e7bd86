/**
 * vitest globalSetup: bring the test world up once before the tests (scripts/world/up).
 * - A world already running from this tree, generated after the last change to scripts/world, is reused.
 * - A world running from another checkout (its world.env named by the pointer file that `up` writes)
 *   is reused too: the addresses are fixed, so two worlds cannot run at once on one machine. Under CI
 *   that other world is stopped (through its own scripts/world/down) and this checkout's started.
 * The world is left running for fast re-runs in development; under CI (process.env.CI) it is stopped
 * at teardown. WORLD_SKIP=1 skips all of this.
 * A world started here has 200 synthetic domains (`--synthetic 200`, about 20 s more) for the batch
 * scanner's test (test/world/batch.test.ts), which uses the regular scenarios when a reused world
 * has none.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { OWN_WORLD_ENV_FILE, WORLD_POINTER_FILE } from "./env.ts"

const scripts = fileURLToPath(new URL("../../scripts/world/", import.meta.url))

const newestMtime = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }, 0)

const running = (statusScript: string) => spawnSync(statusScript, [], { stdio: "ignore" }).status === 0

/** The scripts/world directory of a world running from another checkout, if any. */
const otherWorld = (): string | undefined => {
  if (!existsSync(WORLD_POINTER_FILE)) return undefined
  const envFile = readFileSync(WORLD_POINTER_FILE, "utf8").trim()
  const dir = join(envFile, "../../../scripts/world")
  const live = envFile !== OWN_WORLD_ENV_FILE && existsSync(envFile) && existsSync(join(dir, "status"))
  return live && running(join(dir, "status")) ? dir : undefined
}

export default function setup(): () => void {
  if (process.env.WORLD_SKIP === "1") return () => {}
  let started = false
  const fresh = existsSync(OWN_WORLD_ENV_FILE) && statSync(OWN_WORLD_ENV_FILE).mtimeMs > newestMtime(scripts)
  if (!(fresh && running(join(scripts, "status")))) {
    const other = otherWorld()
    // In development another checkout's world is reused; CI tests its own, so it stops the other.
    if (other && process.env.CI) execFileSync(join(other, "down"), [], { stdio: "inherit", timeout: 60_000 })
    if (!other || process.env.CI) {
      execFileSync(join(scripts, "up"), ["--synthetic", "200"], { stdio: "inherit", timeout: 300_000 })
      started = true
    }
  }
  return () => {
    if (process.env.CI && started)
      execFileSync(join(scripts, "down"), [], { stdio: "inherit", timeout: 60_000 })
  }
}
