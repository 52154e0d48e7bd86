/**
 * The parse pool (ParsePool.ts): a report read in a worker thread answers exactly as the same
 * report read on the service's thread (the same rows, the same refusal), and a pool that cannot
 * read hands the report back (`ParseWorkerLost`) rather than losing it.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { readPosted } from "../../src/inbound/Decode.ts"
import { packRows, parsePool, unpackRows } from "../../src/inbound/ParsePool.ts"
import { DEFAULT_LIMITS } from "../../src/inbound/Refusal.ts"
import { storable } from "../../src/inbound/Storable.ts"
import { dmarcXml, gzipText, type RowSpec, tlsJson, zipText } from "./reports.ts"
import { runs } from "../support/runs.ts"

const limits = DEFAULT_LIMITS
const pool = parsePool(2)
afterAll(() => pool.close())

const utf8 = (s: string) => new TextEncoder().encode(s)

/** Both ways of reading a posted report, each as an Either of its head and rows or its refusal. */
const both = (kind: "dmarc" | "tls", type: string, bytes: Uint8Array) =>
  Effect.all([
    Effect.either(pool.parse({ kind, contentType: type, bytes, limits })),
    Effect.either(Effect.map(readPosted(kind, type, bytes, limits), storable))
  ])

const same = (kind: "dmarc" | "tls", type: string, bytes: Uint8Array) =>
  Effect.gen(function* () {
    const [worker, here] = yield* both(kind, type, bytes)
    if (Either.isLeft(worker) && worker.left._tag === "ParseWorkerLost") throw new Error(worker.left.reason)
    expect(worker).toEqual(here)
    return here
  })

const rows: ReadonlyArray<RowSpec> = [
  { ip: "192.0.2.1", count: 3, dkimAuth: [{ domain: "example.org", selector: "s1", result: "pass" }] },
  {
    ip: "2001:db8::1",
    count: 7,
    dkim: "fail",
    spf: "fail",
    reasons: [{ type: "forwarded", comment: "arc=pass" }]
  }
]

describe("ParsePool", () => {
  it.effect("reads gzip, zip and XML DMARC reports and TLS reports as the service's thread does", () =>
    Effect.gen(function* () {
      const xml = dmarcXml({ domain: "example.org", org: "A & B", rows, bis: true })
      const read = yield* same("dmarc", "application/gzip", gzipText(xml))
      expect(Either.isRight(read) && read.right.head.records).toBe(2)
      yield* same("dmarc", "application/zip", zipText("r.xml", xml))
      yield* same("dmarc", "text/xml; charset=utf-8", utf8(xml))
      yield* same(
        "tls",
        "application/tlsrpt+json",
        utf8(
          tlsJson({
            domain: "example.org",
            success: 5,
            failures: [{ type: "starttls-not-supported", count: 1 }]
          })
        )
      )
    })
  )

  it.effect("refuses what the service's thread refuses, with the same kind and message", () =>
    Effect.gen(function* () {
      const xml = dmarcXml({ domain: "example.org", rows })
      const refused = [
        yield* same("dmarc", "application/gzip", gzipText(xml).subarray(0, 40)),
        yield* same("dmarc", "application/xml", utf8(xml.slice(0, -20))),
        yield* same("dmarc", "application/xml", utf8(`<!DOCTYPE x [<!ENTITY a "b">]>${xml}`)),
        yield* same("dmarc", "application/xml", utf8(xml.replace(/<report_id>[^<]*/, "<report_id>"))),
        yield* same("tls", "application/tlsrpt+gzip", gzipText(xml)),
        yield* same("dmarc", "text/plain", utf8(xml))
      ]
      for (const r of refused) expect(Either.isLeft(r) && r.left._tag).toBe("ReportRefused")
    })
  )

  it.effect("any report text: the worker's answer is the service thread's (property)", () =>
    Effect.gen(function* () {
      const samples = fc.sample(
        fc.record({
          org: fc.string({ maxLength: 20 }),
          cut: fc.nat({ max: 2000 }),
          count: fc.integer({ min: 0, max: 2 ** 32 }),
          gzip: fc.boolean()
        }),
        runs(20)
      )
      for (const s of samples) {
        const xml = dmarcXml({ domain: "example.org", org: s.org, rows: [{ ...rows[0]!, count: s.count }] })
        const text = s.cut > 0 ? xml.slice(0, xml.length - s.cut) : xml
        yield* same(
          "dmarc",
          s.gzip ? "application/gzip" : "application/xml",
          s.gzip ? gzipText(text) : utf8(text)
        )
      }
    })
  )

  it.effect("a pool without workers, or closed, hands the report back to be read here", () =>
    Effect.gen(function* () {
      const closed = parsePool(1)
      expect(closed.available()).toBe(true)
      yield* Effect.promise(() => closed.close())
      expect(closed.available()).toBe(false)
      const r = yield* Effect.either(
        closed.parse({ kind: "dmarc", contentType: "application/xml", bytes: utf8("<feedback/>"), limits })
      )
      expect(Either.isLeft(r) && r.left._tag).toBe("ParseWorkerLost")
      const none = parsePool(0)
      expect(none.available()).toBe(false)
      const n = yield* Effect.either(
        none.parse({ kind: "dmarc", contentType: "application/xml", bytes: utf8("<feedback/>"), limits })
      )
      expect(Either.isLeft(n) && n.left._tag).toBe("ParseWorkerLost")
    })
  )

  it("rows packed for the hand-over unpack to the same rows (property)", () => {
    const text = fc.string({ maxLength: 12 })
    const row = fc.record({
      source_ip: text,
      count: fc.nat(),
      disposition: text,
      dkim: text,
      spf: text,
      overrides: text,
      arc: fc.integer({ min: 0, max: 1 }),
      header_from: text,
      dkim_auth: text,
      spf_auth: text,
      envelope_from: text,
      reasons: text
    })
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        expect(unpackRows(packRows(rows))).toEqual(rows)
      }),
      { numRuns: runs(100) }
    )
  })
})
