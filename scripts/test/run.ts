/**
 * The test command (`npm test`): the type check, the formatting check, the world and the tools the
 * tests install, all at once; then the vitest suite over the world; then the duration guard
 * (scripts/test/budgets.mjs). Under CI a world started here is stopped at the end.
 *   tsx scripts/test/run.ts [vitest arguments]
 * Exits non-zero when any step fails, naming it; the suite runs only when the checks pass.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { prepareWorld, stopWorld } from "../../test/world/prepareWorld.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** Runs a command in the repository; resolves with its name when it exits 0, rejects naming it otherwise. */
const run = (name: string, command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) =>
  new Promise<string>((resolve, reject) => {
    const started = Date.now()
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } })
    child.once("error", (e) => reject(new Error(`${name}: ${e.message}`)))
    child.once("exit", (code, signal) => {
      const took = `${((Date.now() - started) / 1000).toFixed(0)} s`
      if (code === 0) {
        process.stderr.write(`test: ${name} done in ${took}\n`)
        resolve(name)
      } else reject(new Error(`${name} failed (${signal ?? `exit ${code}`}) after ${took}`))
    })
  })

const bin = (name: string) => `${root}node_modules/.bin/${name}`
const world = process.env.WORLD_SKIP !== "1"

const main = async () => {
  let startedWorld = false
  try {
    // The world's start (its own packages first) and the tools' installs wait on the network and on
    // apt; the type check and prettier use the CPU meanwhile.
    const worldReady = world
      ? Promise.all([
          run("tools", `${root}scripts/test/install-tools`, []),
          prepareWorld().then((started) => {
            startedWorld = started
          })
        ])
      : Promise.resolve()
    await Promise.all([
      run("type check", bin("tsc"), ["--noEmit"]),
      run("formatting", bin("prettier"), ["--check", "--log-level", "warn", "."]),
      worldReady
    ])
    await run("vitest", bin("vitest"), ["run", ...process.argv.slice(2)])
    await run("durations", process.execPath, [`${root}scripts/test/budgets.mjs`])
  } finally {
    if (process.env.CI && startedWorld) await stopWorld()
  }
}

main().catch((e: Error) => {
  process.stderr.write(`test: ${e.message}\n`)
  process.exit(1)
})
