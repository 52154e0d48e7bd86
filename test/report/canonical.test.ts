/**
 * Properties of the content hash: it does not depend on key order, it survives the
 * report's Schema encode/decode and a trip through the stored bytes, and it is the SHA-256 of the
 * RFC 8785 form (checked against the RFC's own example, Appendix/§3.2.3 sorting and number rules).
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import fc from "fast-check"
import { canonicalJson, contentHashOf } from "../../src/report/Canonical.ts"
import { ReportContent } from "../../src/report/ReportSchema.ts"
import { runs } from "../support/runs.ts"

/** The same JSON value with every object's keys in a shuffled order. */
const shuffled = (value: unknown, seed: number): unknown => {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i))
  if (value === null || typeof value !== "object") return value
  const keys = Object.keys(value)
  const order = keys
    .map((k, i) => ({ k, r: Math.sin(seed * 7919 + i * 104729) }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.k)
  return Object.fromEntries(order.map((k) => [k, shuffled((value as Record<string, unknown>)[k], seed + 1)]))
}

const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => !Object.is(v, -0))

describe("canonical JSON and the content hash", () => {
  it("does not depend on the order of keys", () =>
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        expect(contentHashOf(shuffled(value, seed))).toBe(contentHashOf(value))
      })
    ))

  it("survives a trip through the canonical bytes", () =>
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value)
        expect(canonicalJson(JSON.parse(text))).toBe(text)
        expect(contentHashOf(JSON.parse(text))).toBe(contentHashOf(value))
      })
    ))

  it("is stable across the report's Schema encode and decode", () => {
    const encode = Schema.encodeSync(ReportContent)
    const decode = Schema.decodeUnknownSync(ReportContent)
    // effect's own fast-check (its Arbitrary.make builds arbitraries of that version)
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(ReportContent), (report) => {
        const encoded = encode(report)
        const again = encode(decode(JSON.parse(canonicalJson(encoded))))
        expect(contentHashOf(again)).toBe(contentHashOf(encoded))
        expect(contentHashOf(shuffled(encoded, 3))).toBe(contentHashOf(encoded))
      }),
      { numRuns: runs(25) }
    )
  })

  it("is sha256 of the RFC 8785 form, written sha256:<hex>", () => {
    // RFC 8785 §3.2.2/3.2.3: keys sorted by UTF-16 code units, numbers in ECMAScript form.
    const value = { b: [1e21, 0.000001, 1.5, -0], a: "\u20ac", "\u00e9": true, A: null }
    const text = '{"A":null,"a":"€","b":[1e+21,0.000001,1.5,0],"é":true}'
    expect(canonicalJson(value)).toBe(text)
    expect(contentHashOf(value)).toBe(`sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`)
    expect(() => canonicalJson({ x: Number.NaN })).toThrow()
    expect(() => canonicalJson({ x: Number.POSITIVE_INFINITY })).toThrow()
  })
})
