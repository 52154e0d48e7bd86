/**
 * The report counters on /metrics: each report stored counted by kind and how it arrived, each
 * refusal by how it arrived and why, every label set on its own series. The registry is the
 * process's, shared with other files run in the same worker: the test reads what its own posts add.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dmarcXml, gzipText, postReport } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

/** The value of the series of `name` whose labels are exactly `labels` (any order); 0 when absent. */
const series = (text: string, name: string, labels: Record<string, string>) => {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(",")
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line)
    if (m?.[1] !== name) continue
    if (m[2]!.split(",").sort().join(",") === want) return Number(m[3])
  }
  return 0
}

layer(testApp({ METRICS_ON_API: "true" }))("the report counters", (it) => {
  it.effect("count stored reports by kind and via, refusals by via and reason", () =>
    Effect.gen(function* () {
      const scrape = Effect.map(call("GET", "/metrics"), (r) => r.text)
      const stored = { kind: "dmarc", via: "http" }
      const malformed = { via: "http", reason: "malformed" }
      const before = yield* scrape
      const xml = dmarcXml({
        domain: "counted-example.com",
        reportId: "c-1",
        rows: [{ ip: "192.0.2.1", count: 3 }]
      })
      const first = yield* postReport("/api/reports/dmarc", "application/xml", xml)
      expect(first.status, JSON.stringify(first.json)).toBe(202)
      // a duplicate is stored again as far as the counter goes ("duplicates included")
      expect((yield* postReport("/api/reports/dmarc", "application/gzip", gzipText(xml))).status).toBe(202)
      const notGzip = yield* postReport(
        "/api/reports/dmarc",
        "application/gzip",
        new Uint8Array([1, 2, 3, 4])
      )
      expect(notGzip.status).toBe(400)
      const after = yield* scrape
      const added = (name: string, labels: Record<string, string>) =>
        series(after, name, labels) - series(before, name, labels)
      expect(added("domain_audit_reports_received_total", stored)).toBe(2)
      expect(added("domain_audit_reports_received_total", { kind: "tls", via: "http" })).toBe(0)
      expect(added("domain_audit_reports_refused_total", malformed)).toBe(1)
    })
  )
})
