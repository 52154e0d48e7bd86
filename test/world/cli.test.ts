/**
 * The `domain-audit` command as a user runs it against the world, through its launcher
 * (bin/domain-audit.mjs: the bundle, under the heap cap): `npx domain-audit batch - --format csv <
 * list > out.csv` writes only CSV, header first; the slow servers of mx-slow.com and web-slow.com are
 * counted as unknown checks; a Ctrl-C mid-run prints the results written and the command that
 * resumes, and that command completes the file with no duplicate; `scan` prints a summary or POST
 * /scan's JSON.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { CSV_COLUMNS } from "../../src/batch/Record.ts"
import { ScanScore } from "../../src/score/Score.ts"
import { worldEnv } from "./env.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "cli-world-"))
const env = () => ({ ...process.env, ...worldEnv(), LOG_LEVEL: "Error" })

/** Up to `n` of the world's synthetic domains (plain copies of good and broken setups). */
const synthetic = (n: number): Array<string> => {
  const manifest = JSON.parse(readFileSync(worldEnv()["WORLD_MANIFEST"] ?? "", "utf8")) as {
    scenarios: Array<{ domain: string; synthetic?: boolean }>
  }
  return manifest.scenarios
    .filter((s) => s.synthetic === true)
    .map((s) => s.domain)
    .slice(0, n)
}

/** Runs a shell command line in the checkout, as a user types it. */
const sh = (line: string, options: { detached?: boolean } = {}) => {
  const child = spawn("sh", ["-c", line], {
    cwd: root,
    env: env(),
    stdio: ["ignore", "pipe", "pipe"],
    ...options
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

const csvRecords = (path: string) =>
  readFileSync(path, "utf8")
    .split("\r\n")
    .filter((line) => line !== "")
    .map(parseCsvRecord)

const cell = (row: ReadonlyArray<string>, column: (typeof CSV_COLUMNS)[number]) =>
  row[CSV_COLUMNS.indexOf(column)]!

beforeAll(() => {
  // Once, here: the runs below find the bundle fresh instead of racing to rebuild it.
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root })
})

describe("domain-audit batch", () => {
  it("writes only CSV to stdout, header first, and counts the slow servers' checks as unknown", async () => {
    const list = join(dir, "slow.txt")
    const out = join(dir, "slow.csv")
    const domains = ["mx-slow.com", "web-slow.com", "perfect.com", ...synthetic(5)]
    writeFileSync(list, domains.join("\n") + "\n")
    // the slow servers' waits shortened (10 s each by default): what is counted does not depend on them
    const run = sh(
      `SMTP_BANNER_TIMEOUT_MS=5000 HTTP_TIMEOUT_MS=5000 npx domain-audit batch - --format csv < '${list}' > '${out}'`
    )
    expect(await run.exited).toBe(0)
    const text = readFileSync(out, "utf8")
    expect(text.startsWith(CSV_COLUMNS.join(",") + "\r\n")).toBe(true)
    const [header, ...rows] = csvRecords(out)
    expect(header).toEqual([...CSV_COLUMNS])
    expect(rows.map((r) => r[0]).sort()).toEqual([...domains].sort())
    for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length)
    const unknown = (domain: string) =>
      cell(
        rows.find((r) => r[0] === domain)!,
        "unknown_checks"
      ).split(" ")
    // mx-slow.com: the MX accepts TCP but never sends its banner; web-slow.com answers after 60 s.
    expect(unknown("mx-slow.com")).toEqual(expect.arrayContaining(["security.mx.starttls"]))
    expect(unknown("web-slow.com")).toEqual(expect.arrayContaining(["security.web.https", "security.csp"]))
    expect(
      cell(
        rows.find((r) => r[0] === "perfect.com")!,
        "unknown_checks"
      )
    ).toBe("")
    const counted = rows.filter((r) => cell(r, "unknown_checks") !== "").length
    expect(counted).toBeGreaterThanOrEqual(2)
    const { stderr } = run.output()
    expect(stderr).toContain(`${domains.length} scanned (0 failed, ${counted} with unknown checks)`)
    expect(stderr).toMatch(/batch: grades: A\+ \d+, A \d+, B \d+, C \d+, D \d+, F \d+, unscannable \d+\n/)
    expect(stderr).toMatch(/batch: the \d+ most common issues, by domains:\n {2}\s*\d+ {2}[a-z0-9_]+: /)
  }, 300_000)

  it("prints the results written and the resume command on Ctrl-C; that command completes the file", async () => {
    const domains = synthetic(40)
    const list = join(dir, "list.txt")
    const out = join(dir, "results.csv")
    writeFileSync(list, domains.join("\n") + "\n")
    // Its own process group, as a terminal's foreground job: Ctrl-C signals every process of it.
    const first = sh(`exec node bin/domain-audit.mjs batch '${list}' --out '${out}' -c 2`, { detached: true })
    const written = () => (existsSync(out) ? csvRecords(out).length - 1 : 0)
    while (written() < 4) {
      if (first.child.exitCode !== null) throw new Error("the batch ended before Ctrl-C")
      await new Promise((ok) => setTimeout(ok, 100))
    }
    process.kill(-first.child.pid!, "SIGINT")
    expect(await first.exited).toBe(130)
    const { stderr } = first.output()
    const done = written()
    expect(done).toBeLessThan(domains.length)
    expect(stderr).toContain(`batch: interrupted: ${done} results written\n`)
    const resume = /batch: resume with: (.+)\n/.exec(stderr)?.[1]
    expect(resume).toBe(`npx domain-audit batch ${list} --out ${out} --format csv --concurrency 2`)

    const second = sh(resume!)
    expect(await second.exited).toBe(0)
    expect(second.output().stderr).toContain(`${done} already in ${out}`)
    expect(second.output().stderr).toContain(`batch: grades (all ${domains.length} graded in ${out}): `)
    const [header, ...rows] = csvRecords(out)
    expect(header).toEqual([...CSV_COLUMNS])
    expect(rows.map((r) => r[0]).sort()).toEqual([...domains].sort())
  }, 300_000)
})

describe("domain-audit scan", () => {
  it("prints the grade, the categories and what could not be judged", async () => {
    const run = sh("SMTP_BANNER_TIMEOUT_MS=5000 node bin/domain-audit.mjs scan https://MX-SLOW.com/")
    expect(await run.exited).toBe(0)
    const { stdout } = run.output()
    expect(stdout).toMatch(/^mx-slow\.com: (A\+|A|B|C|D|F) \(\d+%\), /)
    expect(stdout).toMatch(/\n {2}email +\d+% {2}(pass|partial|fail|not-applicable)\n/)
    expect(stdout).toMatch(
      /\nnot judged \(a question went unanswered, so left out of the score\): .*security\.mx\.starttls/
    )
  }, 120_000)

  it("says a name that does not exist is unscannable, with no grade wording", async () => {
    const run = sh("node bin/domain-audit.mjs scan no-such-domain-xyz.com")
    expect(await run.exited).toBe(0)
    const { stdout } = run.output()
    expect(stdout.split("\n")[0]).toBe(
      "no-such-domain-xyz.com: unscannable: no-such-domain-xyz.com does not exist (NXDOMAIN)"
    )
    expect(stdout).not.toMatch(/cap|band/i)
  }, 120_000)

  it("--json prints what POST /scan answers", async () => {
    const run = sh("node bin/domain-audit.mjs scan perfect.com --json")
    expect(await run.exited).toBe(0)
    const score = Schema.decodeUnknownSync(ScanScore)(JSON.parse(run.output().stdout))
    expect(score.domain).toBe("perfect.com")
    expect(score.grade).toBe("A+")
  }, 120_000)

  it("refuses what is not a domain with a usage error", async () => {
    const run = sh("node bin/domain-audit.mjs scan 127.0.0.1")
    expect(await run.exited).toBe(2)
    expect(run.output().stderr).toContain("IP addresses are not domains")
    expect(run.output().stdout).toBe("")
  }, 60_000)
})
