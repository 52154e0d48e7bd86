/**
 * What a report is worth, over HTTP: the same identity with other content is kept and flagged
 * (never dropped as a duplicate), a count no receiver sends is refused naming the record, a report
 * past retention is refused rather than stored and deleted, each domain of a TLS report gets its
 * own policies, and repairs are named in the 202's `warnings`.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "fflate"
import * as fc from "fast-check"
import { dmarcXml, gzipText, postReport, tlsJson } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

const DAY = 86_400
const recent = Math.floor(Date.now() / 1000 / DAY) * DAY - 3 * DAY
const period = `from=${new Date((recent - DAY) * 1000).toISOString().slice(0, 10)}`

// the service's clock is the real one: retention and the summaries' default period are judged against now
layer(testApp({ REPORTS_RETENTION: "P30D" }), { excludeTestServices: true })(
  "reports kept, flagged and refused",
  (it) => {
    it.effect("keeps a report with a stored identity but other content, flagged as a conflict", () =>
      Effect.gen(function* () {
        const spec = { domain: "conflict-example.com", reportId: "c-1", begin: recent, end: recent + DAY - 1 }
        const genuine = dmarcXml({ ...spec, rows: [{ ip: "192.0.2.1", count: 10 }] })
        const forged = dmarcXml({
          ...spec,
          rows: [{ ip: "203.0.113.9", count: 500, dkim: "fail", spf: "fail" }]
        })
        const first = yield* postReport("/api/reports/dmarc", "application/xml", forged)
        expect(first.json).toMatchObject({ duplicate: false, conflict: false })
        const second = yield* postReport("/api/reports/dmarc", "application/gzip", gzipText(genuine))
        expect(second.status).toBe(202)
        expect(second.json).toMatchObject({ duplicate: false, conflict: true })
        const again = yield* postReport("/api/reports/dmarc", "application/xml", genuine)
        expect(again.json).toMatchObject({ duplicate: true, conflict: true })
        const s = yield* call("GET", `/api/reports/dmarc/conflict-example.com?${period}`)
        expect(s.json).toMatchObject({ reports: 2, messages: 510 })
        expect(s.json.conflicts).toEqual([{ reporter: "Example Receiver", reportId: "c-1", versions: 2 }])
      })
    )

    it.effect("refuses a count above 2^31 naming the record, and every endpoint keeps answering", () =>
      Effect.gen(function* () {
        const xml = dmarcXml({
          domain: "overflow-example.com",
          begin: recent,
          end: recent + DAY - 1,
          rows: [
            { ip: "192.0.2.1", count: 5 },
            { ip: "192.0.2.2", count: 999_999_999_999_999 }
          ]
        })
        const r = yield* postReport("/api/reports/dmarc", "application/xml", xml)
        expect(r.status).toBe(400)
        expect(r.json.error).toMatch(/record\[1\]\.row\.count.*999999999999999.*2\^31/)
        const atLimit = dmarcXml({
          domain: "overflow-example.com",
          reportId: "max",
          begin: recent,
          end: recent + DAY - 1,
          rows: Array.from({ length: 10 }, (_, i) => ({ ip: `192.0.2.${i + 1}`, count: 2 ** 31 }))
        })
        expect((yield* postReport("/api/reports/dmarc", "application/xml", atLimit)).status).toBe(202)
        const s = yield* call("GET", `/api/reports/dmarc/overflow-example.com?${period}`)
        expect(s.status).toBe(200)
        expect(s.json.messages).toBe(10 * 2 ** 31)
      })
    )

    it.effect("no generated report, extremes included, makes ingest or a summary answer 500", () =>
      Effect.gen(function* () {
        const rowArb = fc.record({
          ip: fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom("not-an-ip", "")),
          count: fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(2 ** 31 + 1, 2 ** 53, 0)),
          disposition: fc.constantFrom("none", "quarantine", "reject", "pass", "None", "", "bogus"),
          dkim: fc.constantFrom("pass", "fail") as fc.Arbitrary<"pass" | "fail">,
          spf: fc.constantFrom("pass", "fail") as fc.Arbitrary<"pass" | "fail">,
          headerFrom: fc.oneof(fc.domain(), fc.string({ maxLength: 20 })),
          dkimAuth: fc.array(
            fc.record({
              domain: fc.oneof(fc.domain(), fc.constant("")),
              selector: fc.stringMatching(/^[a-z0-9]{0,10}$/),
              result: fc.constantFrom("pass", "fail", "PASS", "none", "")
            }),
            { maxLength: 3 }
          )
        })
        const reports = fc.sample(fc.array(rowArb, { minLength: 1, maxLength: 20 }), {
          numRuns: 30,
          seed: 47
        })
        for (const [i, rows] of reports.entries()) {
          const xml = dmarcXml({
            domain: "generated-example.com",
            reportId: `g-${i}`,
            begin: recent,
            end: recent + DAY - 1,
            rows: rows.map((r) => ({ ...r, headerFrom: r.headerFrom.replace(/[<&]/g, "") }))
          })
          const r = yield* postReport("/api/reports/dmarc", "application/xml", xml)
          expect([202, 400], JSON.stringify(r.json)).toContain(r.status)
        }
        const s = yield* call("GET", `/api/reports/dmarc/generated-example.com?${period}`)
        expect(s.status, s.text).toBe(200)
        expect(Number.isSafeInteger(s.json.messages)).toBe(true)
      })
    )

    it.effect("refuses a report whose period ended before REPORTS_RETENTION, saying so", () =>
      Effect.gen(function* () {
        const old = dmarcXml({
          domain: "old-example.com",
          begin: recent - 60 * DAY,
          end: recent - 59 * DAY,
          rows: [{ ip: "192.0.2.1", count: 1 }]
        })
        const r = yield* postReport("/api/reports/dmarc", "application/xml", old)
        expect(r.status).toBe(400)
        expect(r.json.error).toMatch(/REPORTS_RETENTION.*not stored/)
      })
    )

    it.effect("files each domain of a TLS report under its own policies and sessions", () =>
      Effect.gen(function* () {
        const range = {
          start: new Date(recent * 1000).toISOString(),
          end: new Date((recent + DAY - 1) * 1000).toISOString()
        }
        const one = JSON.parse(tlsJson({ domain: "tls-a-example.com", range, success: 70 }))
        const two = JSON.parse(
          tlsJson({
            domain: "tls-b-example.com",
            range,
            success: 30,
            failures: [{ type: "certificate-expired", count: 4 }]
          })
        )
        const both = { ...one, "report-id": "multi-1", policies: [...one.policies, ...two.policies] }
        const r = yield* postReport("/api/reports/tls", "application/tlsrpt+json", JSON.stringify(both))
        expect(r.status, JSON.stringify(r.json)).toBe(202)
        const a = yield* call("GET", `/api/reports/tls/tls-a-example.com?${period}`)
        const b = yield* call("GET", `/api/reports/tls/tls-b-example.com?${period}`)
        expect(a.json).toMatchObject({ reports: 1, sessions: { successful: 70, failed: 0 } })
        expect(a.json.byPolicy.map((p: { policyDomain: string }) => p.policyDomain)).toEqual([
          "tls-a-example.com"
        ])
        expect(b.json).toMatchObject({ reports: 1, sessions: { successful: 30, failed: 4 } })
        expect(b.json.failuresByResultType).toEqual([{ resultType: "certificate-expired", sessions: 4 }])
      })
    )

    it.effect("names what it repaired in the 202: bytes after the gzip stream", () =>
      Effect.gen(function* () {
        const gz = gzipSync(
          new TextEncoder().encode(
            dmarcXml({
              domain: "padded-example.com",
              begin: recent,
              end: recent + DAY - 1,
              rows: [{ ip: "192.0.2.1", count: 1 }]
            })
          )
        )
        const padded = new Uint8Array([...gz, 13, 10])
        const r = yield* postReport("/api/reports/dmarc", "application/gzip", padded)
        expect(r.status).toBe(202)
        expect(r.json.warnings).toEqual(["2 byte(s) after the gzip stream ignored"])
      })
    )
  }
)
