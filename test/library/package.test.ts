/**
 * The package as a user gets it: `npm pack` (which builds the bundle and the declarations), the
 * tarball unpacked into an empty project's node_modules, the examples type-checked there with tsc
 * against the packed declarations and run with plain node against the world. A missing export, a
 * declaration that does not match, a file left out of the tarball or a runtime import of something
 * the package does not depend on fails here.
 *
 * The project's node_modules holds the unpacked tarball and links to the packages its manifest
 * lists as dependencies (from this checkout's node_modules, which npm installed from the same
 * lock), plus typescript and @types/node for the type-check: no registry is asked, and a module
 * the bundle imports without declaring it cannot be found. Every command runs asynchronously: a
 * worker blocked for the minute `npm pack` takes on a busy machine loses its line to vitest.
 */
import { execFile } from "node:child_process"
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { worldEnv } from "../world/env.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const project = mkdtempSync(join(tmpdir(), "library-project-"))
const env = () => ({ ...process.env, ...worldEnv(), LOG_LEVEL: "Error" })

const exec = promisify(execFile)

/** How a command in the project ended: its exit status and what it printed. */
const attempt = (command: string, args: ReadonlyArray<string>, cwd = project) =>
  exec(command, args, { cwd, env: env(), maxBuffer: 64 << 20 }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      status: e.code ?? 1,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? ""
    })
  )

/** Runs a command in the project: its output, or the test fails with what it printed. */
const run = async (command: string, args: ReadonlyArray<string>, cwd = project) => {
  const result = await attempt(command, args, cwd)
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`
    )
  return result.stdout
}

const tsc = join(project, "node_modules/typescript/bin/tsc")

const link = (name: string) => {
  const at = join(project, "node_modules", name)
  mkdirSync(dirname(at), { recursive: true })
  symlinkSync(join(root, "node_modules", name), at)
}

let manifest: { dependencies: Record<string, string>; files: Array<string> }

beforeAll(async () => {
  const packed = join(project, "packed")
  mkdirSync(packed)
  await run("npm", ["pack", "--silent", "--pack-destination", packed], root)
  const [tarball] = readdirSync(packed)
  const installed = join(project, "node_modules", "domain-audit")
  mkdirSync(installed, { recursive: true })
  await run("tar", ["-xzf", join(packed, tarball!), "-C", installed, "--strip-components=1"])
  manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
  for (const name of Object.keys(manifest.dependencies)) link(name)
  link("typescript")
  link("@types/node")
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({
      name: "grades",
      private: true,
      type: "module",
      dependencies: { "domain-audit": `file:packed/${tarball}`, effect: manifest.dependencies["effect"] }
    })
  )
  for (const file of ["grades-csv.ts", "custom-resolver.ts", "tsconfig.json"])
    cpSync(join(root, "examples", file), join(project, file))
}, 300_000)

afterAll(() => rmSync(project, { recursive: true, force: true }))

describe("the packed package", () => {
  it("holds the bundle, the declarations and the launcher, and no source", () => {
    const installed = join(project, "node_modules", "domain-audit")
    const all = readdirSync(installed, { recursive: true }).map(String)
    expect(all).toEqual(
      expect.arrayContaining([
        "dist/lib/DomainAudit.mjs",
        "dist/lib/Testing.mjs",
        "dist/types/lib/DomainAudit.d.ts",
        "dist/types/lib/Testing.d.ts",
        "bin/domain-audit.mjs"
      ])
    )
    expect(
      all.filter((path) => path.startsWith("src/") || path.startsWith("test/") || path.endsWith(".map"))
    ).toEqual([])
  })

  it("type-checks both examples against its declarations, and builds them", async () => {
    await run(process.execPath, [tsc, "-p", "tsconfig.json"])
    expect(readdirSync(join(project, "build")).sort()).toEqual(["custom-resolver.js", "grades-csv.js"])
  }, 180_000)

  it("fails the type-check of a program that uses what it does not export", async () => {
    writeFileSync(
      join(project, "wrong.ts"),
      `import { scanEverything } from "domain-audit"\nscanEverything()\n`
    )
    const result = await attempt(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"])
    expect(result.status).not.toBe(0)
    rmSync(join(project, "wrong.ts"))
    expect(result.stdout).toContain("has no exported member 'scanEverything'")
  }, 180_000)

  it("writes a CSV row per domain of the list, graded by the engine the command line runs", async () => {
    const domains = ["perfect.com", "dmarc-none.com", "spf-toomany.com", "no-such-domain.com"]
    writeFileSync(
      join(project, "domains.txt"),
      ["# customers", ...domains, "", "not a domain"].join("\n") + "\n"
    )
    const csv = await run(process.execPath, ["build/grades-csv.js", "domains.txt"])
    const [header, ...rows] = csv
      .split("\r\n")
      .filter((line) => line !== "")
      .map(parseCsvRecord)
    expect(header).toEqual(["domain", "grade", "percentage", "top_issue", "error"])
    expect(rows.map((r) => r[0]).sort()).toEqual([...domains, "not a domain"].sort())
    const rowOf = (domain: string) => rows.find((r) => r[0] === domain)!
    expect(rowOf("perfect.com").slice(1, 3)).toEqual(["A+", "100"])
    expect(rowOf("dmarc-none.com")[3]).toMatch(/^[a-z0-9_]+$/)
    expect(rowOf("no-such-domain.com").slice(1, 3)).toEqual(["F", "0"])
    expect(rowOf("no-such-domain.com")[4]).toContain("does not exist")
    expect(rowOf("not a domain")[4]).toContain("domain must be a hostname")
    // the installed command line (its bundle, no rebuild: the package has no sources) grades alike
    const cli = JSON.parse(
      await run(process.execPath, [
        "node_modules/domain-audit/bin/domain-audit.mjs",
        "scan",
        "dmarc-none.com",
        "--json"
      ])
    ) as { grade: string; percentage: number }
    expect(rowOf("dmarc-none.com").slice(1, 3)).toEqual([cli.grade, String(cli.percentage)])
  }, 180_000)

  it("runs the Effect program over its own resolver, which every DNS question goes through", async () => {
    const out = await run(process.execPath, ["build/custom-resolver.js", "perfect.com"])
    const [, grade, total, byType] =
      /^perfect\.com: (\S+) \(100%\) after (\d+) DNS questions: (.+)\n$/.exec(out) ?? []
    expect(grade).toBe("A+")
    expect(Number(total)).toBeGreaterThan(20)
    expect(byType).toMatch(/\bMX=\d+/)
    expect(byType).toMatch(/\bTLSA=\d+/)
  }, 180_000)
})
