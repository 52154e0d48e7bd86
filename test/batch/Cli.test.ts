import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { DEFAULT_CONCURRENCY, parseCli } from "../../src/batch/Cli.ts"
import { bar, duration, progressLine } from "../../src/batch/Progress.ts"
import { CSV_COLUMNS, csvRow, jsonLine, worstStatus } from "../../src/batch/Record.ts"
import { domain as toDomain } from "../support/domain.ts"

const run = (...argv: Array<string>) => {
  const parsed = Either.getOrThrow(parseCli(argv))
  if (parsed._tag !== "Run") throw new Error("expected options")
  return parsed.options
}
const usage = (...argv: Array<string>) =>
  Either.getLeft(parseCli(argv)).pipe((o) => (o._tag === "Some" ? o.value : ""))

describe("parseCli", () => {
  it("has defaults: stdout, JSONL, the default concurrency", () => {
    expect(run("list.txt")).toEqual({
      input: "list.txt",
      out: undefined,
      format: "jsonl",
      concurrency: DEFAULT_CONCURRENCY,
      rejects: undefined,
      quiet: false,
      cluster: false,
      compare: undefined,
      depth: "full"
    })
  })

  it("takes --depth quick, standard or full, in this process only", () => {
    expect(run("list.txt", "--depth", "quick").depth).toBe("quick")
    expect(run("list.txt", "--depth", "standard").depth).toBe("standard")
    expect(run("list.txt", "--depth", "full", "--cluster").depth).toBe("full")
    expect(parseCli(["list.txt", "--depth", "deep"])).toEqual(
      Either.left("--depth must be quick, standard, full; got 'deep'")
    )
    expect(Either.isLeft(parseCli(["list.txt", "--depth", "quick", "--cluster"]))).toBe(true)
  })

  it("takes the format from --out's extension unless --format says otherwise", () => {
    expect(run("-", "--out", "results.CSV").format).toBe("csv")
    expect(run("-", "-o", "results.jsonl").format).toBe("jsonl")
    expect(run("-", "-o", "results.csv", "-f", "jsonl").format).toBe("jsonl")
    expect(run("-", "-c", "1000", "--rejects", "bad.tsv", "-q")).toMatchObject({
      input: "-",
      concurrency: 1000,
      rejects: "bad.tsv",
      quiet: true
    })
    expect(run("a.txt", "--cluster").cluster).toBe(true)
  })

  it("answers help", () => {
    expect(Either.getOrThrow(parseCli(["--help"]))).toEqual({ _tag: "Help" })
  })

  it.each([
    [[], "name the domain list"],
    [["a.txt", "b.txt"], "one domain list at a time"],
    [["a.txt", "--format", "xml"], "--format must be jsonl or csv"],
    [["a.txt", "-c", "0"], "--concurrency"],
    [["a.txt", "-c", "2.5"], "--concurrency"],
    [["a.txt", "-c", "100001"], "--concurrency"],
    [["a.txt", "--clusters"], "Unknown option"],
    [["a.txt", "-o", "x", "--rejects", "x"], "different files"],
    [["a.txt", "-o", "-"], "--out takes a file"]
  ])("refuses %j (%s)", (argv, why) => {
    expect(usage(...argv)).toContain(why)
  })
})

describe("records", () => {
  it("writes a failure as a full CSV row and a one-line JSON record, domain first", () => {
    const failure = { domain: toDomain("perfect.com"), error: 'boom, "quoted"\nsecond line' }
    const fields = parseCsvRecord(csvRow(failure).replace(/\r\n$/, ""))
    expect(fields).toHaveLength(CSV_COLUMNS.length)
    expect(fields[0]).toBe("perfect.com")
    expect(fields.at(-1)).toBe(failure.error)
    const line = jsonLine(failure)
    expect(line.indexOf("\n")).toBe(line.length - 1)
    expect(line.startsWith('{"domain":"perfect.com","depth":"full"')).toBe(true)
    // A failure of a shallow run says its depth as every record of the run does.
    const quick = { ...failure, depth: "quick" as const }
    expect(jsonLine(quick).startsWith('{"domain":"perfect.com","depth":"quick","error"')).toBe(true)
    expect(parseCsvRecord(csvRow(quick).replace(/\r\n$/, ""))[CSV_COLUMNS.indexOf("depth")]).toBe("quick")
  })

  it("takes the worst status of a concern's records", () => {
    expect(worstStatus([])).toBe("")
    expect(worstStatus(["pass", "partial"])).toBe("partial")
    expect(worstStatus(["pass", "unknown", "partial"])).toBe("unknown")
    expect(worstStatus(["unknown", "fail"])).toBe("fail")
    expect(worstStatus(["not-applicable", "pass"])).toBe("pass")
    expect(worstStatus(["not-applicable"])).toBe("not-applicable")
  })
})

describe("progress text", () => {
  it("shows done/total, rate, ETA and failures", () => {
    const c = { done: 50, total: 200, failed: 2, incomplete: 3, elapsedMs: 30_000 }
    expect(progressLine(c)).toBe("50/200 (25%), 100/min, ETA 1m30s, 2 failed, 3 with unknown checks")
    expect(bar(c, 8)).toBe("[##......] ")
    expect(progressLine({ ...c, total: undefined })).toBe("50, 100/min, 2 failed, 3 with unknown checks")
    expect(duration(3_725_000)).toBe("1h02m")
  })
})
