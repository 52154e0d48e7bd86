/**
 * Brings the test world up once for a test run (scripts/world/up), or finds one to reuse. Used by
 * vitest's globalSetup (globalSetup.ts) and by the test command (scripts/test/run.ts), which starts
 * the world beside the type check.
 * What runs is asked of `scripts/world/status` (docs/world.md): exit 0 running and current, 3 a
 * server stopped, 4 a config would leak, 5 running but stale (built by other code than its
 * checkout's scripts/world), 6 running but changed since its `up` (scripts/world/mutate changed a
 * domain other than the synthetic copies the suite's own tests mutate and reset).
 * - This checkout's world, current: reused. Stale or changed: restarted, with a message saying why.
 * - Else a world running from another checkout (its world.env named by the pointer file that `up`
 *   writes), current or stale, is reused (saying so when stale); a changed one is replaced: the
 *   addresses are fixed, so two worlds cannot run at once on one machine. Under CI this checkout's
 *   world replaces it (`up` stops it through its own scripts/world/down).
 * An `up` or `down` running (someone's, or another test run's) is waited for first.
 * A world started here has 200 synthetic domains (`--synthetic 200`, about 20 s more) for the batch
 * scanner's test (test/world/batch.test.ts), which uses the regular scenarios when a reused world
 * has none.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { OWN_WORLD_ENV_FILE, parseEnvFile, WORLD_POINTER_FILE } from "./env.ts"

/** `scripts/world/status` exit codes. */
const WorldStatus = { current: 0, stopped: 3, leaking: 4, stale: 5, changed: 6 } as const

interface World {
  readonly dir: string
  readonly scripts: string
}

const own: World = {
  dir: dirname(OWN_WORLD_ENV_FILE),
  scripts: fileURLToPath(new URL("../../scripts/world/", import.meta.url))
}

/**
 * Runs a command to its end without holding the event loop (the test command runs the type check
 * meanwhile): its exit code, null when it was killed at `timeout` ms or could not start.
 */
const exitOf = (
  command: string,
  args: ReadonlyArray<string>,
  options: { timeout: number; inherit?: boolean; env?: NodeJS.ProcessEnv }
) =>
  new Promise<number | null>((resolve) => {
    const child = spawn(command, args, {
      stdio: options.inherit ? "inherit" : "ignore",
      timeout: options.timeout,
      env: options.env ?? process.env
    })
    child.once("error", () => resolve(null))
    child.once("exit", (code) => resolve(code))
  })

/** The world's own status script, run on its own directory (bounded: it bounds its own steps too). */
const statusOf = (world: World) =>
  exitOf(join(world.scripts, "status"), [], {
    timeout: 120_000,
    env: { ...process.env, WORLD_DIR: world.dir }
  })

/** The world the pointer file names, with the scripts that started it (origin.env, written by up). */
const pointedWorld = (): World | undefined => {
  if (!existsSync(WORLD_POINTER_FILE)) return undefined
  const dir = dirname(readFileSync(WORLD_POINTER_FILE, "utf8").trim())
  const origin = join(dir, "origin.env")
  // A world started before origin.env existed lives in its checkout's data/world.
  const scripts = existsSync(origin)
    ? parseEnvFile(readFileSync(origin, "utf8")).WORLD_SCRIPTS
    : join(dir, "../../scripts/world")
  return scripts !== undefined && existsSync(join(scripts, "status")) ? { dir, scripts } : undefined
}

const say = (message: string) => process.stderr.write(`world: ${message}\n`)

/** Whether a world must be started here; says which world is reused, and why one is restarted. */
const mustStart = async (): Promise<boolean> => {
  const ownStatus = await statusOf(own)
  if (ownStatus === WorldStatus.current) return false
  if (ownStatus === WorldStatus.stale) {
    say(
      `this checkout's world in ${own.dir} is running but stale (scripts/world changed since); restarting it`
    )
    return true
  }
  if (ownStatus === WorldStatus.changed) {
    say(`this checkout's world in ${own.dir} was changed by scripts/world/mutate since its up; restarting it`)
    return true
  }
  const other = pointedWorld()
  if (other === undefined || other.dir === own.dir) return true
  const otherStatus = await statusOf(other)
  if (otherStatus === WorldStatus.changed) {
    say(`the world running from ${other.dir} was changed by scripts/world/mutate since its up; replacing it`)
    return true
  }
  if (otherStatus !== WorldStatus.current && otherStatus !== WorldStatus.stale) return true
  if (process.env.CI) {
    say(`CI tests this checkout's world: replacing the world running from ${other.dir}`)
    return true
  }
  if (otherStatus === WorldStatus.stale)
    say(
      `reusing the world running from ${other.dir}, which is stale (built by other code than its checkout's scripts/world); to test against the current code restart it: WORLD_DIR=${other.dir} ${join(other.scripts, "up")}`
    )
  return false
}

/** Held by `up` and `down` while they run (scripts/world/lib.sh world_lock), beside the pointer file. */
const WORLD_LOCK_FILE = join(dirname(WORLD_POINTER_FILE), "domain-audit-world.lock")

/**
 * Waits while an `up` or `down` runs, so that what runs is asked of a world that is finished: else
 * a world still booting (someone's `up`) reads as none, and this checkout's `up` would replace it.
 */
const awaitWorldCommands = async (): Promise<void> => {
  if ((await exitOf("flock", ["-n", WORLD_LOCK_FILE, "true"], { timeout: 10_000 })) !== 1) return
  say(`waiting for the world's running up or down to finish (${WORLD_LOCK_FILE})`)
  await exitOf("flock", ["-w", "1200", WORLD_LOCK_FILE, "true"], { timeout: 1_260_000 })
}

/**
 * Makes a world answer for this run: reuses one as above, or starts this checkout's. Returns whether
 * it started one (which the caller stops under CI: `stopWorld`).
 */
export const prepareWorld = async (): Promise<boolean> => {
  await awaitWorldCommands()
  const started = await mustStart()
  if (!started) return false
  // up bounds each of its steps; this limit only guards against a step without one.
  const code = await exitOf(join(own.scripts, "up"), ["--synthetic", "200"], {
    timeout: 900_000,
    inherit: true
  })
  if (code !== 0)
    throw new Error(`scripts/world/up failed (${code === null ? "ended at its time limit" : `exit ${code}`})`)
  return true
}

/** Stops this checkout's world. */
export const stopWorld = async (): Promise<void> => {
  const code = await exitOf(join(own.scripts, "down"), [], { timeout: 120_000, inherit: true })
  if (code !== 0)
    throw new Error(
      `scripts/world/down failed (${code === null ? "ended at its time limit" : `exit ${code}`})`
    )
}
