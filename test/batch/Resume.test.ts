import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import fc from "fast-check"
import { csvRecord } from "../../src/batch/Csv.ts"
import { CSV_COLUMNS, csvHeader } from "../../src/batch/Record.ts"
import { readWritten, RecordSplitter } from "../../src/batch/Resume.ts"
import { runs } from "../support/runs.ts"

const dir = mkdtempSync(join(tmpdir(), "batch-resume-"))
let n = 0
const file = (content: string) => {
  const path = join(dir, `out-${n++}`)
  writeFileSync(path, content)
  return path
}

/** Splits `bytes` at the given cut points (sorted, deduplicated) and pushes the pieces. */
const pushInPieces = (splitter: RecordSplitter, bytes: Buffer, cuts: ReadonlyArray<number>) => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: Array<string> = []
  let from = 0
  for (const at of [...points, bytes.length]) {
    out.push(...splitter.push(bytes.subarray(from, at)))
    from = at
  }
  return out
}

const csvFields = fc.array(fc.string({ unit: "binary", maxLength: 12 }), { minLength: 1, maxLength: 4 })

describe("RecordSplitter", () => {
  it("returns exactly the complete CSV records of any prefix, however the bytes arrive", () => {
    fc.assert(
      fc.property(
        fc.array(csvFields, { maxLength: 6 }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (records, cutSeed, cuts) => {
          const texts = records.map(csvRecord)
          const whole = Buffer.from(texts.join(""))
          const keep = cutSeed % (whole.length + 1)
          const splitter = new RecordSplitter("csv")
          const got = pushInPieces(splitter, whole.subarray(0, keep), cuts)
          // The records whose every byte, CRLF included, lies within the prefix.
          const expected: Array<string> = []
          let end = 0
          for (const text of texts) {
            end += Buffer.byteLength(text)
            if (end <= keep) expected.push(text.slice(0, -2))
          }
          expect(got).toEqual(expected)
          expect(splitter.complete).toBe(Buffer.byteLength(texts.slice(0, expected.length).join("")))
        }
      ),
      { numRuns: runs(300) }
    )
  })

  it("splits JSON lines at LF only (JSON escapes its line breaks)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (values, cuts) => {
          const lines = values.map((v) => JSON.stringify(v))
          const splitter = new RecordSplitter("jsonl")
          const got = pushInPieces(splitter, Buffer.from(lines.map((l) => l + "\n").join("")), cuts)
          expect(got.map((l) => JSON.parse(l))).toEqual(values.map((v) => JSON.parse(JSON.stringify(v))))
        }
      ),
      { numRuns: runs(300) }
    )
  })
})

const row = (domain: string, depth = "full") =>
  csvRecord([domain, ...CSV_COLUMNS.slice(1).map((c) => (c === "depth" ? depth : 'x,"y"\nz'))])

describe("readWritten", () => {
  it.effect("reads nothing from a missing or empty file", () =>
    Effect.gen(function* () {
      const missing = yield* readWritten(join(dir, "nope"), "csv")
      expect(missing).toMatchObject({ records: 0, tornBytes: 0, hasHeader: false })
      const empty = yield* readWritten(file(""), "jsonl")
      expect(empty).toMatchObject({ records: 0, tornBytes: 0, hasHeader: true })
    })
  )

  it.effect("reads the domains of a JSONL file and cuts a torn last line", () =>
    Effect.gen(function* () {
      const whole = '{"domain":"perfect.com","scan":{}}\n{"score":1,"domain":"unsigned.net"}\n'
      const path = file(whole + '{"domain":"synth-00001.com","sc')
      const written = yield* readWritten(path, "jsonl")
      expect([...written.domains]).toEqual(["perfect.com", "unsigned.net"])
      expect(written).toMatchObject({ records: 2, tornBytes: 31 })
      expect(readFileSync(path, "utf8")).toBe(whole)
      // Repaired once: reading again finds a whole file.
      expect((yield* readWritten(path, "jsonl")).tornBytes).toBe(0)
    })
  )

  it.effect("reads the domains of a CSV file, quoted line breaks included, and cuts a torn row", () =>
    Effect.gen(function* () {
      const whole = csvHeader() + row("perfect.com") + row("unsigned.net")
      const path = file(whole + row("synth-00001.com").slice(0, 30))
      const written = yield* readWritten(path, "csv")
      expect([...written.domains]).toEqual(["perfect.com", "unsigned.net"])
      expect(written).toMatchObject({ records: 2, hasHeader: true })
      expect(readFileSync(path, "utf8")).toBe(whole)
    })
  )

  it.effect("cuts a torn CSV header, so the next run writes it whole", () =>
    Effect.gen(function* () {
      const path = file(csvHeader().slice(0, 10))
      expect(yield* readWritten(path, "csv")).toMatchObject({ hasHeader: false, records: 0 })
      expect(readFileSync(path, "utf8")).toBe("")
    })
  )

  it.effect("resumes a file of this run's depth, and refuses one of another depth, untouched", () =>
    Effect.gen(function* () {
      const quickCsv = csvHeader() + row("perfect.com", "quick") + row("unsigned.net", "quick")
      const csv = file(quickCsv)
      expect([...(yield* readWritten(csv, "csv", () => {}, "quick")).domains]).toEqual([
        "perfect.com",
        "unsigned.net"
      ])
      const refused = yield* Effect.flip(readWritten(csv, "csv", () => {}, "full"))
      expect(refused.message).toMatch(/depth quick.*depth is full.*--depth quick/)
      expect(readFileSync(csv, "utf8")).toBe(quickCsv)
      // JSONL: the depth follows the domain; a record without one was a full scan.
      const jsonl = file('{"domain":"perfect.com","depth":"standard","scan":{}}\n{"domain":"unsigned.net"}\n')
      expect(Exit.isFailure(yield* Effect.exit(readWritten(jsonl, "jsonl", () => {}, "standard")))).toBe(true)
      const old = file('{"domain":"perfect.com"}\n')
      expect([...(yield* readWritten(old, "jsonl")).domains]).toEqual(["perfect.com"])
      expect(Exit.isFailure(yield* Effect.exit(readWritten(old, "jsonl", () => {}, "quick")))).toBe(true)
      const same = file('{"domain":"perfect.com","depth":"quick","error":"x"}\n')
      expect((yield* readWritten(same, "jsonl", () => {}, "quick")).records).toBe(1)
      // A depth that is none of the three is not a batch output of this version.
      const odd = file('{"domain":"perfect.com","depth":"deep"}\n')
      expect(Exit.isFailure(yield* Effect.exit(readWritten(odd, "jsonl")))).toBe(true)
    })
  )

  it.effect("refuses a file of the other format, or not a batch output, and leaves it alone", () =>
    Effect.gen(function* () {
      const jsonl = file('{"domain":"perfect.com"}\n')
      const asCsv = yield* Effect.exit(readWritten(jsonl, "csv"))
      expect(Exit.isFailure(asCsv)).toBe(true)
      const csv = file(csvHeader() + row("perfect.com") + "partial")
      expect(Exit.isFailure(yield* Effect.exit(readWritten(csv, "jsonl")))).toBe(true)
      expect(readFileSync(csv, "utf8").endsWith("partial")).toBe(true)
      const notes = file("some notes\n")
      expect(Exit.isFailure(yield* Effect.exit(readWritten(notes, "jsonl")))).toBe(true)
    })
  )
})
