/**
 * The batch scanner against the world, as a user runs it (a child process, `domain-audit batch` from
 * the bundle, test/support/bundle.ts):
 * a list of world domains written every way people write them, with junk lines, gives every valid
 * domain exactly once and reports each invalid line; killed with SIGKILL halfway (plus a torn
 * last line, as a kill in mid-write leaves), a re-run completes the output with no duplicate.
 * The list uses the world's synthetic domains (200 when the world was started with
 * `--synthetic 200` or more, as globalSetup does) and the regular scenarios otherwise.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { CSV_COLUMNS } from "../../src/batch/Record.ts"
import { worldEnv } from "./env.ts"
import { CLI } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "batch-world-"))

interface Scenario {
  readonly domain: string
  readonly synthetic?: boolean
}

/** Up to `n` world domains: synthetic ones first (plain copies of good and broken setups). */
const worldDomains = (n: number): Array<string> => {
  const manifest = JSON.parse(readFileSync(worldEnv()["WORLD_MANIFEST"] ?? "", "utf8")) as {
    scenarios: Array<Scenario>
  }
  const synthetic = manifest.scenarios.filter((s) => s.synthetic === true).map((s) => s.domain)
  const regular = manifest.scenarios.filter((s) => s.synthetic !== true).map((s) => s.domain)
  return (synthetic.length >= n ? synthetic : [...synthetic, ...regular]).slice(0, n)
}

/** Junk the list holds besides domains: [line, rejected?]. */
const JUNK: ReadonlyArray<readonly [string, boolean]> = [
  ["# customer list, exported 2026-11-23", false],
  ["", false],
  ["   ", false],
  ["not a domain", true],
  ["127.0.0.1", true],
  ["localhost", true],
  ["-bad-.com", true],
  ["a..b.com", true],
  ["printer.local", true],
  ["   # indented comment", false],
  ["http://user:secret@perfect.com/", true]
]

/** The list: every domain once as written, a third again in another spelling, junk in between. */
const listOf = (domains: ReadonlyArray<string>) => {
  const lines: Array<string> = []
  domains.forEach((domain, i) => {
    lines.push(
      i % 4 === 0 ? `https://${domain.toUpperCase()}/index.html` : i % 4 === 1 ? `${domain}.` : domain
    )
    if (i % 3 === 0) lines.push(`  ${domain.toUpperCase()}  # again`)
    if (i % 20 === 0) lines.push(...JUNK.map(([line]) => line))
  })
  const rejected = JUNK.filter(([, bad]) => bad).length * Math.ceil(domains.length / 20)
  return { text: lines.join("\n") + "\n", rejected }
}

const env = () => ({ ...process.env, ...worldEnv(), LOG_LEVEL: "Error" })

/** Starts the batch (node + tsx, one process, so SIGKILL kills the scanner itself). */
const start = (args: ReadonlyArray<string>, stdin?: string) => {
  const child = spawn(process.execPath, [...CLI, "batch", ...args], {
    cwd: root,
    env: env(),
    stdio: ["pipe", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
  child.stdin.end(stdin ?? "")
  const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

const lineCount = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0)

const waitFor = async (condition: () => boolean, child: ChildProcess) => {
  while (!condition()) {
    if (child.exitCode !== null) throw new Error("the batch ended before it was killed")
    await new Promise((ok) => setTimeout(ok, 100))
  }
}

describe("batch scanner", () => {
  it("scans every valid domain exactly once, reports invalid lines, and resumes after SIGKILL", async () => {
    const domains = worldDomains(200)
    const list = join(dir, "domains.txt")
    const { text, rejected } = listOf(domains)
    appendFileSync(list, text)
    const out = join(dir, "results.jsonl")
    const rejects = join(dir, "rejects.tsv")
    const args = [list, "--out", out, "--concurrency", "25", "--rejects", rejects]

    const first = start(args)
    await waitFor(() => lineCount(out) >= domains.length / 2, first.child)
    first.child.kill("SIGKILL")
    await first.exited
    const before = lineCount(out)
    expect(before).toBeLessThan(domains.length)
    // What a kill in mid-write leaves: a record cut short, with no line end.
    appendFileSync(out, `{"domain":"${domains[0]}","scan":{"domain":"${domains[0]}","comput`)

    const second = start(args)
    expect(await second.exited).toBe(0)
    const { stderr } = second.output()
    expect(stderr).toContain("torn last record")
    expect(stderr).toContain(`${before} already in ${out}`)

    const records = readFileSync(out, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { domain: string; score?: { grade: string }; error?: string })
    const written = records.map((r) => r.domain).sort()
    expect(written).toEqual([...domains].sort())
    for (const r of records) expect(r.score?.grade ?? r.error).toBeTruthy()

    const listed = readFileSync(rejects, "utf8").trim().split("\n")
    expect(listed).toHaveLength(rejected)
    expect(listed[0]).toMatch(/^\d+\tnot a domain\tdomain must be a hostname/)
    expect(stderr).toContain(`${rejected} invalid lines`)
  }, 600_000)

  it("writes CSV rows to stdout from a list on stdin", async () => {
    const domains = worldDomains(12)
    const run = start(["-", "--format", "csv", "--concurrency", "6"], listOf(domains).text)
    expect(await run.exited).toBe(0)
    const [header, ...rows] = run
      .output()
      .stdout.split("\r\n")
      .filter((line) => line !== "")
      .map(parseCsvRecord)
    expect(header).toEqual([...CSV_COLUMNS])
    expect(rows.map((r) => r[0]).sort()).toEqual([...domains].sort())
    const verdicts = new Set(["pass", "partial", "fail", "unknown", "not-applicable", ""])
    for (const row of rows) {
      expect(row).toHaveLength(CSV_COLUMNS.length)
      const cell = (column: (typeof CSV_COLUMNS)[number]) => row[CSV_COLUMNS.indexOf(column)]!
      expect(["A+", "A", "B", "C", "D", "F"]).toContain(cell("grade"))
      expect(Number(cell("score"))).toBeGreaterThanOrEqual(0)
      for (const column of ["spf", "dmarc", "dkim", "mta_sts", "dnssec", "starttls"] as const)
        expect(verdicts).toContain(cell(column))
    }
  }, 300_000)
})
