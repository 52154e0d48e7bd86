/**
 * Reports posted over HTTP with parse workers (`REPORTS_PARSE_WORKERS`, inbound/ParsePool.ts): the
 * service answers as it does reading them on its own thread: stored, duplicate, conflict, the
 * summary over them, and each refusal with its status and message.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dmarcXml, gzipText, postReport, tlsJson } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

const DAY = 86_400
const recent = Math.floor(Date.now() / 1000 / DAY) * DAY - 3 * DAY
const period = `from=${new Date((recent - DAY) * 1000).toISOString().slice(0, 10)}`

layer(testApp({ REPORTS_PARSE_WORKERS: "1" }), { excludeTestServices: true })(
  "reports read in parse workers",
  (it) => {
    it.effect("stores, deduplicates and flags conflicts as on the service's thread", () =>
      Effect.gen(function* () {
        const spec = { domain: "workers-example.com", reportId: "w-1", begin: recent, end: recent + DAY - 1 }
        const genuine = dmarcXml({
          ...spec,
          rows: [
            {
              ip: "192.0.2.1",
              count: 10,
              dkimAuth: [{ domain: "workers-example.com", selector: "s1", result: "pass" }]
            },
            { ip: "2001:db8::5", count: 3, dkim: "fail", spf: "fail", reasons: [{ type: "forwarded" }] }
          ]
        })
        const forged = dmarcXml({
          ...spec,
          rows: [{ ip: "203.0.113.9", count: 500, dkim: "fail", spf: "fail" }]
        })
        const first = yield* postReport("/api/reports/dmarc", "application/gzip", gzipText(genuine))
        expect(first.status).toBe(202)
        expect(first.json).toMatchObject({
          reportId: "w-1",
          domain: "workers-example.com",
          reporter: "Example Receiver",
          records: 2,
          duplicate: false,
          conflict: false,
          warnings: []
        })
        const again = yield* postReport("/api/reports/dmarc", "application/xml", genuine)
        expect(again.json).toMatchObject({ duplicate: true, conflict: false })
        const other = yield* postReport("/api/reports/dmarc", "application/xml", forged)
        expect(other.json).toMatchObject({ duplicate: false, conflict: true })
        const s = yield* call("GET", `/api/reports/dmarc/workers-example.com?${period}`)
        expect(s.json).toMatchObject({ reports: 2, messages: 513 })
      })
    )

    it.effect("refuses what the service's thread refuses, with the same status and message", () =>
      Effect.gen(function* () {
        const xml = dmarcXml({
          domain: "workers-example.com",
          reportId: "w-2",
          begin: recent,
          end: recent + DAY - 1,
          rows: [{ ip: "192.0.2.1", count: 1 }]
        })
        const truncated = yield* postReport(
          "/api/reports/dmarc",
          "application/gzip",
          gzipText(xml).subarray(0, 60)
        )
        expect(truncated.status).toBe(400)
        const doctype = yield* postReport("/api/reports/dmarc", "application/xml", `<!DOCTYPE x>${xml}`)
        expect(doctype.status).toBe(400)
        expect(doctype.json.error).toMatch(/DOCTYPE/)
        const cut = yield* postReport("/api/reports/dmarc", "application/xml", xml.slice(0, -30))
        expect(cut.status).toBe(400)
        expect(cut.json.error).toMatch(/ends inside <feedback>/)
        const tls = yield* postReport(
          "/api/reports/dmarc",
          "application/xml",
          tlsJson({ domain: "workers-example.com" })
        )
        expect(tls.status).toBe(415)
        expect(tls.json.error).toMatch(/post it to \/api\/reports\/tls/)
      })
    )
  }
)
