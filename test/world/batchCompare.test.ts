/**
 * `domain-audit batch --compare` against the world, as a user runs it: a second run over the same
 * domains adds to each record the changes since the first run's; the world did not change, so no
 * record, certificate or listing did.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"
import { CLI } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

const batch = (args: ReadonlyArray<string>) =>
  new Promise<number | null>((ok) =>
    spawn(process.execPath, [...CLI, "batch", ...args], {
      cwd: root,
      env: { ...process.env, ...worldEnv(), LOG_LEVEL: "Error" },
      stdio: "ignore"
    }).on("exit", ok)
  )

const records = (path: string) =>
  Object.fromEntries(
    readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .map((r) => [r.domain, r])
  )

describe("batch --compare in the world", () => {
  it("adds the changes since the earlier run to each record", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-compare-world-"))
    const list = join(dir, "domains.txt")
    writeFileSync(list, "perfect.com\ndmarc-none.com\n")
    const first = join(dir, "first.jsonl")
    const second = join(dir, "second.jsonl")
    expect(await batch([list, "--out", first, "--quiet"])).toBe(0)
    writeFileSync(list, "perfect.com\ndmarc-none.com\nmx-listed.com\n")
    expect(await batch([list, "--out", second, "--compare", first, "--quiet"])).toBe(0)
    const out = records(second)
    for (const domain of ["perfect.com", "dmarc-none.com"]) {
      expect(Array.isArray(out[domain].changes)).toBe(true)
      expect(
        out[domain].changes.filter((c: any) => !["check", "issue-opened", "issue-closed"].includes(c.kind))
      ).toEqual([])
    }
    expect(out["mx-listed.com"].changes).toBeNull()
    expect(records(first)["perfect.com"].changes).toBeUndefined()
  })
})
