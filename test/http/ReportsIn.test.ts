/**
 * POST /api/reports/dmarc and /api/reports/tls at the HTTP edge, and the summaries over what was
 * stored: each accepted media type, dedupe, and hostile input refused with a clear error (400,
 * 413, 415) while the service keeps serving and the store holds nothing of it.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync, zipSync } from "fflate"
import { dmarcXml, gzipText, postReport, type RowSpec, tlsJson, zipText } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

const send = postReport

const rows: ReadonlyArray<RowSpec> = [
  {
    ip: "192.0.2.1",
    count: 10,
    dkimAuth: [{ domain: "reports-example.com", selector: "sel2026", result: "pass" }]
  },
  {
    ip: "192.0.2.2",
    count: 5,
    dkim: "fail",
    spf: "fail",
    dkimAuth: [{ domain: "esp.example", selector: "k1", result: "pass" }]
  },
  {
    ip: "198.51.100.7",
    count: 2,
    dkim: "fail",
    spf: "fail",
    disposition: "none",
    reasons: [{ type: "local_policy", comment: "arc=pass as.1.google.com=pass" }]
  }
]

layer(testApp({ REPORTS_MAX_BYTES: "2000000", REPORTS_MAX_RECORDS: "1000" }))(
  "reports in over HTTP",
  (it) => {
    it.effect("stores a DMARC report once, from XML, gzip, zip or a message, and summarises it", () =>
      Effect.gen(function* () {
        const xml = dmarcXml({ domain: "reports-example.com", reportId: "a-1", rows })
        const first = yield* send("/api/reports/dmarc", "application/xml", xml)
        expect(first.status, JSON.stringify(first.json)).toBe(202)
        expect(first.json).toEqual({
          reportId: "a-1",
          domain: "reports-example.com",
          reporter: "Example Receiver",
          period: { begin: "2025-11-25T00:00:00.000Z", end: "2025-11-25T23:59:59.000Z" },
          records: 3,
          duplicate: false,
          conflict: false,
          warnings: [],
          // posted from this machine (the test's loopback client): authenticated by that
          authenticated: true,
          authenticatedFor: null,
          authentication: "posted over HTTP from this machine"
        })
        const again = yield* send("/api/reports/dmarc", "application/gzip", gzipText(xml))
        expect(again).toMatchObject({ status: 202, json: { duplicate: true } })
        const zipped = dmarcXml({ domain: "reports-example.com", reportId: "a-2", rows, bis: true })
        expect(
          (yield* send("/api/reports/dmarc", "application/zip", zipText("r.xml", zipped))).json.duplicate
        ).toBe(false)

        const s = yield* call("GET", "/api/reports/dmarc/reports-example.com?from=2025-11-01&to=2025-12-01")
        expect(s.status).toBe(200)
        expect(s.json).toMatchObject({
          domain: "reports-example.com",
          reports: 2,
          messages: 34,
          dmarcPass: 20,
          sourcesTotal: 3
        })
        expect(s.json.selectors).toContainEqual({
          selector: "sel2026",
          domain: "reports-example.com",
          messages: 20,
          pass: 20,
          fail: 0
        })
        expect(s.json.reporters).toEqual([{ name: "Example Receiver", reports: 2, messages: 34 }])
        const forwarded = s.json.sources.find((x: { ip: string }) => x.ip === "198.51.100.7")
        expect(forwarded).toMatchObject({ forwarder: true, overridden: 4 })
        // 192.0.2.2 passes DKIM as esp.example, unaligned: a legitimate-looking sender that p=reject would lose
        expect(s.json.readyForReject.verdict).toBe("not-ready")
        expect(s.json.readyForReject.blockers).toEqual([
          expect.objectContaining({
            ip: "192.0.2.2",
            messages: 10,
            reason: expect.stringMatching(/dkim:esp\.example/)
          })
        ])
        const empty = yield* call(
          "GET",
          "/api/reports/dmarc/reports-example.com?from=2020-01-01&to=2020-02-01"
        )
        expect(empty.json).toMatchObject({
          messages: 0,
          passRate: null,
          readyForReject: { verdict: "no-data" }
        })
        expect((yield* call("GET", "/api/reports/dmarc/reports-example.com?from=yesterday")).status).toBe(400)
      })
    )

    it.effect("stores TLS reports as JSON or gzip and summarises failures by type, MX and policy", () =>
      Effect.gen(function* () {
        const json = tlsJson({
          domain: "tls-example.net",
          failures: [{ type: "certificate-expired", count: 3 }]
        })
        expect((yield* send("/api/reports/tls", "application/tlsrpt+json", json)).status).toBe(202)
        const second = tlsJson({
          domain: "tls-example.net",
          reportId: "tls-2",
          org: "Other",
          failures: [{ type: "starttls-not-supported", count: 1, mx: "mx2.tls-example.net" }]
        })
        expect(
          (yield* send("/api/reports/tls", "application/tlsrpt+gzip", gzipText(second))).json.records
        ).toBe(1)
        const s = yield* call("GET", "/api/reports/tls/tls-example.net?from=2026-11-01&to=2026-12-01")
        expect(s.json).toMatchObject({
          reports: 2,
          sessions: { successful: 200, failed: 4 },
          failuresByResultType: [
            { resultType: "certificate-expired", sessions: 3 },
            { resultType: "starttls-not-supported", sessions: 1 }
          ],
          failuresByMx: [
            { mx: "mx.tls-example.net", sessions: 3 },
            { mx: "mx2.tls-example.net", sessions: 1 }
          ],
          byPolicy: [{ policyType: "sts", policyDomain: "tls-example.net", successful: 200, failed: 4 }]
        })
      })
    )

    it.effect(
      "refuses hostile and wrong input with a clear error, stores none of it, and keeps serving",
      () =>
        Effect.gen(function* () {
          const domain = "hostile-example.org"
          // an XML start, then 64 gzip members of 1 MiB of spaces each (RFC 1952 2.2): read as a stream,
          // it is the decompression limit that stops it, not the parser
          const start = gzipSync(new TextEncoder().encode("<feedback>"))
          const member = gzipSync(new Uint8Array(1 << 20).fill(0x20), { level: 9 })
          const bomb = new Uint8Array(start.length + member.length * 64)
          bomb.set(start, 0)
          for (let i = 0; i < 64; i++) bomb.set(member, start.length + i * member.length)
          const many: Record<string, Uint8Array> = {}
          for (let i = 0; i < 10_000; i++) many[`r${i}.xml`] = new Uint8Array(0)
          const good = dmarcXml({ domain, rows })
          const cases: ReadonlyArray<
            readonly [string, string | undefined, Uint8Array | string, number, RegExp]
          > = [
            [
              "billion laughs",
              "application/xml",
              `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><feedback>&b;</feedback>`,
              400,
              /DOCTYPE/
            ],
            [
              "external entity",
              "application/xml",
              `<!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]><feedback>&x;</feedback>`,
              400,
              /DOCTYPE/
            ],
            ["gzip bomb", "application/gzip", bomb, 400, /decompresses to more than/],
            ["zip of 10,000 entries", "application/zip", zipSync(many), 400, /more than 16 entries/],
            ["truncated XML", "application/xml", good.slice(0, good.length - 30), 400, /not well-formed/],
            [
              "wrong schema",
              "application/xml",
              "<feedback><report_metadata/></feedback>",
              400,
              /not a DMARC aggregate report/
            ],
            [
              "too many records",
              "application/xml",
              dmarcXml({ domain, rows: Array.from({ length: 1001 }, () => rows[0]!) }),
              400,
              /more than 1000 records \(the limit\)/
            ],
            [
              "JSON to the DMARC route",
              "application/json",
              "{}",
              415,
              /Content-Type must be one of application\/xml/
            ],
            ["no content type", undefined, good, 415, /Content-Type must be one of/],
            [
              "a DMARC report to the TLS route",
              "application/tlsrpt+json",
              good,
              415,
              /post it to \/api\/reports\/dmarc/
            ],
            ["over the size limit", "application/xml", "x".repeat(2_000_001), 413, /limit is 2000000 bytes/]
          ]
          for (const [what, type, body, status, error] of cases) {
            const path = type?.startsWith("application/tlsrpt") ? "/api/reports/tls" : "/api/reports/dmarc"
            const r = yield* send(path, type, body)
            expect({ what, status: r.status }).toEqual({ what, status })
            expect(r.json.error, what).toMatch(error)
          }
          const s = yield* call("GET", `/api/reports/dmarc/${domain}?from=2020-01-01&to=2030-01-01`)
          expect(s.json).toMatchObject({ reports: 0, messages: 0 })
          expect((yield* call("GET", "/api/health")).status).toBe(200)
        })
    )
  }
)
