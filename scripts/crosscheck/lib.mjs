/**
 * Shared by the cross-check scripts: the running world's settings, the service's API, and the
 * report every script prints (one line per case, every disagreement, the reason of each documented
 * exception, exit 1 on an unexplained one).
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { domainToASCII, fileURLToPath } from "node:url"

export const here = dirname(fileURLToPath(import.meta.url))
export const repo = join(here, "../..")

/** `KEY=value` lines, as test/world/env.ts parses them. */
const parseEnv = (text) =>
  Object.fromEntries(
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#") && l.indexOf("=") > 0)
      .map((l) => {
        const v = l.slice(l.indexOf("=") + 1).trim()
        return [l.slice(0, l.indexOf("=")).trim(), /^(['"]).*\1$/.test(v) ? v.slice(1, -1) : v]
      })
  )

/** The running world's world.env: WORLD_ENV_FILE, this checkout's, else the one `up` points to. */
export const worldEnv = () => {
  const pointer = join(tmpdir(), "domain-audit-world.path")
  const file = [
    process.env.WORLD_ENV_FILE,
    join(repo, "data/world/world.env"),
    existsSync(pointer) ? readFileSync(pointer, "utf8").trim() : undefined
  ].find((f) => f && existsSync(f))
  if (!file) throw new Error("the test world is not up (no world.env): run scripts/world/up as root")
  return parseEnv(readFileSync(file, "utf8"))
}

/**
 * The running world's built-in scenarios (from its manifest, with their MX and web addresses) that
 * this checkout also declares in scripts/world/scenarios.json. A world started from a newer
 * checkout may stage scenarios whose code is not here yet; they are named and left out. The
 * synthetic copies add nothing a reference tool would judge anew.
 */
export const worldScenarios = (env = worldEnv(), log = console.log) => {
  const ours = new Set(
    JSON.parse(readFileSync(join(repo, "scripts/world/scenarios.json"), "utf8")).scenarios.map((s) =>
      domainToASCII(s.domain)
    )
  )
  const builtIn = JSON.parse(readFileSync(env.WORLD_MANIFEST, "utf8")).scenarios.filter((s) => !s.synthetic)
  const newer = builtIn.filter((s) => !ours.has(s.domain)).map((s) => s.domain)
  if (newer.length > 0)
    log(`note     left out, not in this checkout's scripts/world/scenarios.json: ${newer.join(", ")}`)
  return builtIn.filter((s) => ours.has(s.domain))
}

/**
 * GET a JSON endpoint of the service; the body whatever the status (errors are `{ error }`). A 503
 * or 429 (admission control, docs/architecture.md) is retried: the service is busy, not wrong.
 */
export const getJson = async (api, path) => {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${api}${path}`)
    if ((response.status === 503 || response.status === 429) && attempt < 10) {
      await response.body?.cancel()
      await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") ?? 1)))
      continue
    }
    return { status: response.status, body: await response.json() }
  }
}

/**
 * GET each of `paths` (getJson), `limit` at a time; the answers in the paths' order. A scan that waits
 * on a slow or silent server then waits beside the others, not after them.
 */
export const getJsonAll = async (api, paths, limit = 6) => {
  const answers = new Array(paths.length)
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const i = next++
      answers[i] = await getJson(api, paths[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, paths.length) }, worker))
  return answers
}

/** Install Debian packages when a binary is missing (idempotent: nothing runs when all exist). */
export const ensureApt = (binaries, packages) => {
  const missing = binaries.filter((b) => {
    try {
      execFileSync("sh", ["-c", `command -v ${b}`], { stdio: "ignore" })
      return false
    } catch {
      return true
    }
  })
  if (missing.length === 0) return
  const install = () =>
    // The lock timeout: other installers (the cluster's Postgres) may run at the same time under npm test.
    execFileSync(
      "apt-get",
      ["install", "-y", "-o", "DPkg::Lock::Timeout=300", "--no-install-recommends", ...packages],
      {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
      }
    )
  try {
    install()
  } catch {
    execFileSync("apt-get", ["update", "-o", "DPkg::Lock::Timeout=300"], {
      stdio: ["ignore", "ignore", "inherit"]
    })
    install()
  }
}

/**
 * One cross-check's tally. `add` records a case; a disagreement is explained when `exceptions`
 * has the case's key, or "* rest" for a key "subject rest" (the same reason for every subject);
 * the reason, an RFC section, is printed under it. `checkOf` names a case's check, for the
 * per-check agreement (by default what follows the subject: "mx.perfect.com@::1 trust" -> trust).
 */
export const report = (
  tool,
  exceptions,
  log = console.log,
  checkOf = (key) => key.slice(key.indexOf(" ") + 1)
) => {
  const cases = []
  const explain = (key) => exceptions[key] ?? exceptions[`* ${key.split(" ").slice(1).join(" ")}`]
  const used = new Set()
  return {
    add(key, agree, ours, theirs) {
      const reason = agree ? undefined : (explain(key) ?? "UNEXPLAINED")
      if (!agree && explain(key))
        used.add(exceptions[key] === undefined ? `* ${key.split(" ").slice(1).join(" ")}` : key)
      cases.push({ key, agree, ours, theirs, reason })
      // an exception's reason is printed once, then named
      const said =
        reason &&
        reason !== "UNEXPLAINED" &&
        cases.some((c, i) => i < cases.length - 1 && c.reason === reason)
      const why = !reason ? "" : said ? `\n         (the documented exception above)` : `\n         ${reason}`
      log(`${agree ? "agree   " : "DISAGREE"} ${key.padEnd(34)} ours ${ours}  ${tool} ${theirs}${why}`)
    },
    /** Print the totals; the number of unexplained disagreements. */
    finish() {
      const agreed = cases.filter((c) => c.agree).length
      const explained = cases.filter((c) => !c.agree && explain(c.key)).length
      const unexplained = cases.length - agreed - explained
      const unused = Object.keys(exceptions).filter((k) => !used.has(k))
      for (const k of unused) log(`note     exception for ${k} no longer needed (${tool} agrees)`)
      // agreement per check, where a key is "subject check" (an MX address's trust, a site's HSTS)
      if (cases.every((c) => c.key.includes(" "))) {
        const checks = new Map()
        for (const c of cases) {
          const check = checkOf(c.key)
          const [n, ok] = checks.get(check) ?? [0, 0]
          checks.set(check, [n + 1, ok + (c.agree ? 1 : 0)])
        }
        if (checks.size < cases.length)
          log(`per check: ${[...checks].map(([check, [n, ok]]) => `${check} ${ok}/${n}`).join(", ")}`)
      }
      log(
        `${tool}: ${cases.length} cases, ${agreed} agree, ${explained} documented exception(s), ${unexplained} unexplained`
      )
      return { tool, cases: cases.length, agreed, explained, unexplained }
    }
  }
}

/** A free TCP port on loopback. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/**
 * Start the service with the world's settings on a free port (its own data directory, so no other
 * instance's database is touched). Returns the API base and a `stop`.
 */
export const startService = async (env = worldEnv()) => {
  const [port, runnerPort] = [await freePort(), await freePort()]
  const dataDir = mkdtempSync(join(tmpdir(), "crosscheck-data-"))
  const child = spawn(process.execPath, ["--import", "tsx", join(repo, "src/main.ts")], {
    cwd: repo,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      RUNNER_PORT: String(runnerPort),
      DATA_DIR: dataDir,
      // the cross-checks ask more than a client's default burst allows
      RATE_CHEAP_BURST: "10000",
      RATE_COSTLY_BURST: "10000",
      LOG_LEVEL: "Warn"
    },
    stdio: ["ignore", "inherit", "inherit"]
  })
  const api = `http://127.0.0.1:${port}/api`
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before answering`)
    try {
      if ((await fetch(`${api}/health`)).ok)
        return {
          api,
          stop: () =>
            new Promise((resolve) => {
              const done = () => resolve(rmSync(dataDir, { recursive: true, force: true }))
              if (child.exitCode !== null) return done()
              child.once("exit", done)
              child.kill("SIGTERM")
            })
        }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill("SIGTERM")
  rmSync(dataDir, { recursive: true, force: true })
  throw new Error("the service did not answer /api/health within 60 s")
}
