import { describe, expect, it } from "vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import fc from "fast-check"
import { encoderOf } from "../../src/batch/Encode.ts"
import { BatchResult } from "../../src/batch/Record.ts"
import { registry } from "../../src/checks/index.ts"
import type { AnyCheck } from "../../src/kernel/Check.ts"
import { ScanScore, score } from "../../src/score/Score.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"

/** As the batch writes it: the same text is the same record. */
const same = <A, I>(schema: Schema.Schema<A, I>, value: A): void => {
  expect(JSON.stringify(encoderOf(schema)(value))).toBe(JSON.stringify(Schema.encodeSync(schema)(value)))
}

/** `value` as the scan's code may build it: every object's keys in another order (`order` picks them). */
const rebuilt = (value: unknown, order: (keys: Array<string>) => Array<string>): unknown => {
  if (Array.isArray(value)) return value.map((v) => rebuilt(v, order))
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value
  const input = value as Record<string, unknown>
  const output: Record<string, unknown> = {}
  for (const key of order(Object.keys(input))) output[key] = rebuilt(input[key], order)
  return output
}

/** `value` with a key its Schema does not declare, as a spread of a wider object leaves one. */
const undeclared = <T extends object>(value: T): T => Object.assign(value, { undeclared: true })

const records = FIXTURES.map((domain) => {
  const scan = storedScan(domain)
  return { domain: scan.domain, scan, score: score(scan) }
})

describe("encoderOf", () => {
  it("writes the fixtures' records as Schema.encodeSync does", () => {
    for (const record of records) same(BatchResult, record)
  })

  it("puts the keys in the Schema's order, whatever the value's order", () => {
    fc.assert(
      fc.property(fc.constantFrom(...records), fc.integer(), (record, seed) => {
        // A shuffle of each object's keys, the same for a given seed.
        let state = seed
        const order = (keys: Array<string>) =>
          keys
            .map((key) => ({ key, rank: (state = (state * 1103515245 + 12345) | 0) }))
            .sort((a, b) => a.rank - b.rank)
            .map(({ key }) => key)
        same(BatchResult, rebuilt(record, order) as BatchResult)
      }),
      { numRuns: 20 }
    )
  })

  it("leaves out the keys a struct does not declare, keeps a record's, and encodes what transforms", () => {
    const schema = Schema.Struct(
      {
        kept: Schema.String,
        optional: Schema.optional(Schema.Int),
        nested: Schema.NullOr(Schema.Struct({ at: Schema.DateFromString })),
        list: Schema.Array(Schema.Struct({ n: Schema.Number }))
      },
      Schema.Record({ key: Schema.String, value: Schema.Unknown })
    )
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(fc.integer(), { nil: undefined }),
        fc.option(fc.date({ noInvalidDate: true }), { nil: null }),
        fc.array(fc.double({ noNaN: true })),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (kept, optional, at, ns, extra) =>
          same(schema, {
            ...extra,
            list: ns.map((n) => undeclared({ n })),
            nested: at === null ? null : undeclared({ at }),
            ...(optional === undefined ? {} : { optional }),
            kept
          })
      )
    )
    same(Schema.Struct({ a: Schema.String }), undeclared({ a: "x" }))
  })

  it("writes any value of a check's result and of the score as Schema.encodeSync does", () => {
    const sampled = <A, I>(schema: Schema.Schema<A, I>) => {
      for (const value of FastCheck.sample(Arbitrary.make(schema), { numRuns: 25, seed: 42 }))
        same(schema, value)
    }
    sampled(ScanScore)
    const checks: ReadonlyArray<AnyCheck> = registry
    for (const check of checks) sampled(check.result)
  })
})
