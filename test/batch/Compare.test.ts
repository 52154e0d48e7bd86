/**
 * `batch --compare`: each record written gains the changes since the earlier output's record of
 * its domain (null when there is none), read back from the earlier file line by line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { runBatch } from "../../src/batch/Batch.ts"
import { type BatchOptions, parseCli } from "../../src/batch/Cli.ts"
import { readPrevious } from "../../src/batch/Compare.ts"
import { type BatchRecord, jsonLine } from "../../src/batch/Record.ts"
import { score } from "../../src/score/Score.ts"
import { asDomain, storedScan } from "../monitor/scans.ts"
import { domain as toDomain } from "../support/domain.ts"

const recordOf = (name: string, scenario: string): BatchRecord => {
  const scan = asDomain(storedScan(scenario), name)
  return { domain: scan.domain, scan, score: score(scan) }
}

const silent = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream

describe("batch --compare", () => {
  it("adds the changes since the earlier output's record of each domain", async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-compare-"))
    const previous = join(dir, "previous.jsonl")
    writeFileSync(
      previous,
      [
        jsonLine(recordOf("shop.example.com", "perfect.com")),
        jsonLine({ domain: toDomain("broken.example.com"), error: "the scan failed" }),
        jsonLine(recordOf("same.example.com", "mx-listed.com"))
      ].join("")
    )
    writeFileSync(
      join(dir, "list.txt"),
      "shop.example.com\nsame.example.com\nnew.example.com\nbroken.example.com\n"
    )
    const now: Record<string, BatchRecord> = {
      "shop.example.com": recordOf("shop.example.com", "dmarc-none.com"),
      "same.example.com": recordOf("same.example.com", "mx-listed.com"),
      "new.example.com": recordOf("new.example.com", "perfect.com"),
      "broken.example.com": recordOf("broken.example.com", "perfect.com")
    }
    const options: BatchOptions = {
      input: join(dir, "list.txt"),
      out: join(dir, "now.jsonl"),
      format: "jsonl",
      concurrency: 2,
      rejects: undefined,
      quiet: true,
      cluster: false,
      compare: previous
    }
    await Effect.runPromise(runBatch(options, (domain) => Effect.succeed(now[domain]!), silent))
    const out = Object.fromEntries(
      readFileSync(options.out!, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .map((r) => [r.domain, r])
    )
    expect(out["shop.example.com"].changes).toContainEqual(
      expect.objectContaining({
        id: "record/dmarc-policy",
        summary: "DMARC policy went from reject to none."
      })
    )
    expect(out["same.example.com"].changes).toEqual([])
    expect(out["new.example.com"].changes).toBeNull()
    expect(out["broken.example.com"].changes).toBeNull()
    expect(Object.keys(out["shop.example.com"])[0]).toBe("domain")
  })

  it("is for JSONL output, from an earlier file", () => {
    expect(Either.getLeft(parseCli(["list.txt", "--out", "x.csv", "--compare", "a.jsonl"]))).toEqual(
      Either.getLeft(Either.left("--compare adds the changes to JSONL records: use --format jsonl"))
    )
    expect(Either.isLeft(parseCli(["list.txt", "--out", "a.jsonl", "--compare", "a.jsonl"]))).toBe(true)
    expect(parseCli(["list.txt", "--compare", "a.jsonl"])).toMatchObject({
      right: { options: { compare: "a.jsonl", format: "jsonl" } }
    })
  })

  it("compares with a record written before a check was added: it was not checked then", async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-compare-"))
    const previous = join(dir, "previous.jsonl")
    // An earlier output by a version without the DNSSEC check: its scan has no such outcome.
    const old = JSON.parse(jsonLine(recordOf("shop.example.com", "dmarc-none.com")))
    delete old.scan.checks.dnssec
    writeFileSync(previous, JSON.stringify(old) + "\n")
    const read = await Effect.runPromise(readPrevious(previous))
    const changes = read.changesOf(recordOf("shop.example.com", "dmarc-none.com"))
    read.close()
    expect(changes).not.toBeNull()
    expect(changes!.find((c) => c.id === "check/dnssec.signed")).toMatchObject({
      before: null,
      after: "fail",
      severity: "info"
    })
    expect(changes!.filter((c) => c.severity !== "info")).toEqual([])
  })
})
