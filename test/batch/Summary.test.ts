import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { duration, perMinute, progressLine, rateNumber } from "../../src/batch/Progress.ts"
import { interruptedText, resumeCommand, shellWord } from "../../src/batch/ResumeCommand.ts"
import { type BatchSummary, summaryText, Tally } from "../../src/batch/Summary.ts"
import { csvRecord } from "../../src/batch/Csv.ts"
import { CSV_COLUMNS, csvRow } from "../../src/batch/Record.ts"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { FastCheck } from "effect"
import { scanResult } from "../../src/score/Arbitraries.ts"
import { score } from "../../src/score/Score.ts"
import type { BatchOptions } from "../../src/batch/Cli.ts"

const summary: BatchSummary = {
  scanned: 3,
  failed: 0,
  incomplete: 2,
  alreadyWritten: 0,
  duplicates: 1,
  invalid: 0,
  tornBytes: 0,
  heldForMemory: 0,
  elapsedMs: 10_400,
  grades: new Map([
    ["A+", 1],
    ["F", 1],
    ["unscannable", 1]
  ]),
  topIssues: [
    { id: "dmarc_missing", title: "No DMARC record", domains: 2 },
    { id: "caa_missing", title: "No CAA record", domains: 1 }
  ]
}

describe("the summary", () => {
  it("counts, times, grades every grade and lists the common issues", () => {
    expect(summaryText(summary, undefined)).toBe(
      "batch: 3 scanned (0 failed, 2 with unknown checks), 1 duplicates, 0 invalid lines; 10s, 17.3 domains/min\n" +
        "batch: grades: A+ 1, A 0, B 0, C 0, D 0, F 1, unscannable 1\n" +
        "batch: the 2 most common issues, by domains:\n" +
        "  2  dmarc_missing: No DMARC record\n" +
        "  1  caa_missing: No CAA record\n"
    )
  })

  it("says when the grades are of this run only, and gives no rate it cannot measure", () => {
    const text = summaryText({ ...summary, alreadyWritten: 5, elapsedMs: 400 }, "out.csv")
    expect(text).toContain(", 5 already in out.csv, ")
    expect(text).toContain("; 0.4s\n")
    expect(text).toContain("batch: grades (all 3 graded in out.csv): A+ 1,")
    const none = summaryText({ ...summary, scanned: 0, grades: new Map(), topIssues: [] }, "out.csv")
    expect(none.split("\n")).toHaveLength(2)
    expect(none).not.toContain("domains/min")
  })
})

describe("the tally", () => {
  it("counts a domain that could not be graded as unscannable, not F, in the CSV and the summary", () => {
    const tally = new Tally()
    const row = CSV_COLUMNS.map((c) =>
      c === "domain"
        ? "no-such.com"
        : c === "grade"
          ? "unscannable"
          : c === "issues"
            ? "dns_no_such_domain"
            : ""
    )
    tally.addWritten("csv", csvRecord(row).replace(/\r\n$/, ""))
    tally.addWritten(
      "jsonl",
      JSON.stringify({ domain: "x.com", score: { grade: "F", unscannable: "x", issues: [] } })
    )
    expect([...tally.grades]).toEqual([["unscannable", 2]])
  })

  it("writes unscannable in the CSV's grade column exactly when the score says the domain is unscannable", () => {
    FastCheck.assert(
      FastCheck.property(scanResult(), (scan) => {
        const s = score(scan)
        const fields = parseCsvRecord(csvRow({ domain: scan.domain, scan, score: s }).replace(/\r\n$/, ""))
        expect(fields[CSV_COLUMNS.indexOf("grade")]).toBe(s.unscannable === null ? s.grade : "unscannable")
      }),
      { numRuns: 20 }
    )
  }, 60_000)

  it("counts the records a resumed output held, CSV or JSONL, each issue once per domain", () => {
    const tally = new Tally()
    const row = CSV_COLUMNS.map((c) =>
      c === "domain" ? "a.com" : c === "grade" ? "D" : c === "issues" ? "dmarc_missing caa_missing" : ""
    )
    tally.addWritten("csv", csvRecord(row).replace(/\r\n$/, ""))
    const failed = CSV_COLUMNS.map((c) => (c === "domain" ? "b.com" : c === "error" ? "boom" : ""))
    tally.addWritten("csv", csvRecord(failed).replace(/\r\n$/, ""))
    const issue = { id: "dmarc_missing", title: "No DMARC record" }
    tally.addWritten(
      "jsonl",
      JSON.stringify({ domain: "c.com", scan: {}, score: { grade: "F", issues: [issue, issue] } })
    )
    tally.addWritten("jsonl", JSON.stringify({ domain: "d.com", error: "boom" }))
    expect([...tally.grades]).toEqual([
      ["D", 1],
      ["F", 1]
    ])
    expect(tally.top()).toEqual([
      { id: "dmarc_missing", title: "No DMARC record", domains: 2 },
      { id: "caa_missing", title: "No CAA record", domains: 1 }
    ])
  })
})

describe("rate and ETA", () => {
  const base = { done: 3, total: 10, failed: 0, incomplete: 0, elapsedMs: 5_000 }

  it("shows tenths of seconds under 10 s, whole ones beyond", () => {
    expect(duration(400)).toBe("0.4s")
    expect(duration(9_940)).toBe("9.9s")
    expect(duration(9_960)).toBe("10s")
    expect(duration(125_000)).toBe("2m05s")
  })

  it("draws the rate from the recent window, not the average since the start", () => {
    // 600 done in 10 minutes, but 300 of them in the last minute: the pace is now 300/min.
    const c = { ...base, done: 600, total: 1200, elapsedMs: 600_000, recent: { done: 300, ms: 60_000 } }
    expect(perMinute(c)).toBe(300)
    expect(progressLine(c)).toContain("300/min, ETA 2m00s")
  })

  it("falls back to the average since the start when the window holds too few results", () => {
    // A slow run: 10 done in 10 minutes, one in the last minute.
    const c = { ...base, done: 10, total: 20, elapsedMs: 600_000, recent: { done: 1, ms: 60_000 } }
    expect(perMinute(c)).toBe(1)
    expect(progressLine(c)).toContain("1.0/min, ETA 10m00s")
  })

  it("gives no ETA from fewer than three results", () => {
    expect(progressLine({ ...base, done: 2 })).not.toContain("ETA")
    expect(progressLine({ ...base, done: 3 })).toContain("ETA")
    expect(progressLine({ ...base, done: 1, elapsedMs: 500 })).toContain("0.0/min")
  })

  it("never shows NaN or Infinity", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.nat(10_000),
        fc.nat(10_000_000),
        fc.option(fc.record({ done: fc.nat(10_000), ms: fc.nat(60_000) }), { nil: undefined }),
        (done, extra, elapsedMs, recent) => {
          const line = progressLine({
            done,
            total: done + extra,
            failed: 0,
            incomplete: 0,
            elapsedMs,
            recent
          })
          expect(line).not.toMatch(/NaN|Infinity|-\d/)
        }
      )
    )
    expect(rateNumber(1650.4)).toBe("1,650")
  })
})

describe("Ctrl-C's resume line", () => {
  const options: BatchOptions = {
    input: "my list.txt",
    out: "out.csv",
    format: "csv",
    concurrency: 50,
    rejects: undefined,
    quiet: true,
    cluster: false
  }
  const noFiles = { stdin: undefined, stdout: undefined }

  it("rebuilds the run's command, quoted for the shell", () => {
    expect(resumeCommand(options, noFiles)).toEqual({
      command: "npx domain-audit batch 'my list.txt' --out out.csv --format csv --concurrency 50 --quiet"
    })
    expect(shellWord("it's")).toBe(`'it'\\''s'`)
    // A shallow run resumes at its depth (a file of another depth is refused: Resume.ts).
    expect(resumeCommand({ ...options, depth: "quick" }, noFiles)).toEqual({
      command:
        "npx domain-audit batch 'my list.txt' --out out.csv --format csv --concurrency 50 --quiet --depth quick"
    })
  })

  it("resumes results redirected to a file by naming it, and reads a redirected list back", () => {
    const piped = { ...options, input: "-", out: undefined }
    expect(resumeCommand(piped, { stdin: "/data/list.txt", stdout: "/data/out.csv" })).toEqual({
      command:
        "npx domain-audit batch - --out /data/out.csv --format csv --concurrency 50 --quiet < /data/list.txt"
    })
    expect(resumeCommand(piped, { stdin: undefined, stdout: "/data/out.csv" })).toEqual({
      command:
        "npx domain-audit batch - --out /data/out.csv --format csv --concurrency 50 --quiet  # with the same list on stdin"
    })
    expect(resumeCommand(piped, noFiles)).toHaveProperty("cannot")
  })

  it("says how many results were written, this run and in all", () => {
    const text = interruptedText({ thisRun: 7, before: 3 }, options, noFiles)
    expect(text.split("\n")[0]).toBe("batch: interrupted: 7 results written (10 in out.csv)")
    expect(text.split("\n")[1]).toMatch(/^batch: resume with: npx domain-audit batch /)
  })
})
