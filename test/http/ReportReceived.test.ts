/**
 * The reports received in the Everything Report over HTTP, without network (PTR and SPF look-ups
 * fail at once): they are read once per scan, so every report made from one cached scan has the
 * same content and content hash while reports keep arriving; a new scan reads them again.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dmarcXml, gzipText, postReport } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

const today = Math.floor(Date.now() / 86_400_000) * 86_400

/** A DMARC aggregate report of yesterday for reports-received.com: `count` messages passing. */
const post = (id: string, count: number) =>
  Effect.map(
    postReport(
      "/api/reports/dmarc",
      "application/gzip",
      gzipText(
        dmarcXml({
          domain: "reports-received.com",
          reportId: id,
          begin: today - 86_400,
          end: today - 1,
          rows: [{ ip: "192.0.2.1", count }]
        })
      )
    ),
    (r) => expect(r.status).toBe(202)
  )

const report = Effect.map(call("GET", "/api/report/everything?domain=reports-received.com"), (r) => {
  expect(r.status).toBe(200)
  return r.json
})

describe("reports received in the report", () => {
  layer(testApp(), { excludeTestServices: true })((it) => {
    it.effect("are read once per scan: one cached scan gives one content while reports arrive", () =>
      Effect.gen(function* () {
        yield* post("first", 10)
        const first = yield* report
        expect(first.reportsReceived.dmarc).toMatchObject({ reports: 1, messages: 10, passRate: 1 })
        expect(first.reportsReceived.tls).toBeNull()
        yield* post("second", 5)
        const again = yield* report
        expect(again.generatedAt).toBe(first.generatedAt)
        expect(again.reportsReceived).toEqual(first.reportsReceived)
        expect(again.evidence.contentHash).toBe(first.evidence.contentHash)
        // the summary endpoint reads the store as it is now
        const now = yield* call("GET", "/api/reports/dmarc/reports-received.com")
        expect(now.json.messages).toBe(15)
      })
    )
  })

  layer(testApp({ SCAN_CACHE_TTL_MS: "0" }), { excludeTestServices: true })((it) => {
    it.effect("a new scan reads them again", () =>
      Effect.gen(function* () {
        yield* post("first", 10)
        expect((yield* report).reportsReceived.dmarc.messages).toBe(10)
        yield* post("second", 5)
        const later = yield* report
        expect(later.reportsReceived.dmarc).toMatchObject({ reports: 2, messages: 15 })
      })
    )
  })
})
