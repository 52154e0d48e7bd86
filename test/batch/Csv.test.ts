import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { csvField, csvRecord, parseCsvRecord } from "../../src/batch/Csv.ts"
import { runs } from "../support/runs.ts"

describe("CSV (RFC 4180)", () => {
  it.each([
    ["perfect.com", "perfect.com"],
    ["", ""],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\r", '"cr\r"'],
    [" padded", '" padded"'],
    ["A+", "A+"]
  ])("writes %j as %j", (value, field) => {
    expect(csvField(value)).toBe(field)
  })

  it("ends a record with CRLF", () => {
    expect(csvRecord(["a", "b,c", ""])).toBe('a,"b,c",\r\n')
  })

  it("reads back every record it writes, whatever the fields hold", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 20 }), { minLength: 1, maxLength: 8 }),
        (fields) => {
          const record = csvRecord(fields)
          expect(record.endsWith("\r\n")).toBe(true)
          expect(parseCsvRecord(record.slice(0, -2))).toEqual(fields)
        }
      ),
      { numRuns: runs(500) }
    )
  })

  it("a record's only unquoted line break is its last", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 10 }), { minLength: 1, maxLength: 5 }), (fields) => {
        const record = csvRecord(fields)
        let quoted = false
        for (let i = 0; i < record.length - 1; i++) {
          if (record[i] === '"') quoted = !quoted
          else if (record[i] === "\n") expect(quoted).toBe(true)
        }
        expect(quoted).toBe(false)
      })
    )
  })
})
