/**
 * Reports received, in the Everything Report, against the world: a DMARC aggregate report and a TLS
 * report posted for perfect.com are summarised in GET /api/report/everything (JSON and markdown),
 * agree with GET /api/reports/dmarc/{domain} over the same period, show on the report page with
 * readyForReject in plain words, and are part of a snapshot's hashed content.
 */
import { createHash } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import canonicalize from "canonicalize"
import { Effect, Layer } from "effect"
import { call, testApp } from "../http/harness.ts"
import { dmarcXml, gzipText, postReport, tlsJson } from "../inbound/reports.ts"
import { worldEnv } from "./env.ts"

const App = Layer.unwrapEffect(Effect.sync(() => testApp(worldEnv())))

/** Yesterday (UTC): a period that ended before the report is made, as senders report. */
const today = Math.floor(Date.now() / 86_400_000) * 86_400
const begin = today - 86_400
const iso = (s: number) => new Date(s * 1000).toISOString().replace(".000", "")

const recomputed = (text: string) => {
  const { evidence: _evidence, ...content } = JSON.parse(text)
  return `sha256:${createHash("sha256").update(canonicalize(content)!, "utf8").digest("hex")}`
}

layer(App, { timeout: 180_000, excludeTestServices: true })("reports received, in the world", (it) => {
  it.effect(
    "a posted DMARC and TLS report show in perfect.com's report, its markdown, its page and a snapshot",
    () =>
      Effect.gen(function* () {
        const xml = dmarcXml({
          domain: "perfect.com",
          org: "World Receiver",
          reportId: `received-${Date.now()}`,
          begin,
          end: today - 1,
          p: "reject",
          rows: [
            // perfect.com's own MX, signing aligned
            {
              ip: "127.25.0.1",
              count: 40,
              dkimAuth: [{ domain: "perfect.com", selector: "selector1", result: "pass" }]
            },
            // an ESP with its own bounce domain: legitimate-looking, not aligned, so a blocker
            {
              ip: "198.51.100.7",
              count: 6,
              dkim: "fail",
              spf: "fail",
              disposition: "reject",
              spfAuth: [{ domain: "bounce.esp.example", result: "pass" }]
            },
            // a spoofer: no blocker
            { ip: "203.0.113.5", count: 3, dkim: "fail", spf: "fail", disposition: "reject" }
          ]
        })
        const dmarcPosted = yield* postReport("/api/reports/dmarc", "application/gzip", gzipText(xml))
        expect(dmarcPosted).toMatchObject({ status: 202, json: { domain: "perfect.com" } })
        const tls = tlsJson({
          domain: "perfect.com",
          reportId: `received-tls-${Date.now()}`,
          range: { start: iso(begin), end: iso(today - 1) },
          failures: [{ type: "certificate-expired", count: 2 }]
        })
        const tlsPosted = yield* postReport("/api/reports/tls", "application/tlsrpt+json", tls)
        expect(tlsPosted.status).toBe(202)

        const live = yield* call("GET", "/api/report/everything?domain=perfect.com")
        expect(live.status).toBe(200)
        const received = live.json.reportsReceived
        // the 30 days before the scan behind the report (to the second)
        expect(Date.parse(received.to)).toBe(Math.floor(Date.parse(live.json.generatedAt) / 1000) * 1000)
        expect(Date.parse(received.to) - Date.parse(received.from)).toBe(30 * 86_400_000)
        expect(received.rua).toEqual({
          dmarc: ["mailto:dmarc@perfect.com"],
          tls: ["mailto:tlsrpt@perfect.com"]
        })
        expect(received.dmarc).toMatchObject({ reports: 1, messages: 49, dmarcPass: 40, sourcesTotal: 3 })
        expect(received.dmarc.topSources).toContainEqual(
          expect.objectContaining({ ip: "127.25.0.1", ptr: "mx.perfect.com", messages: 40, dmarcPass: 40 })
        )
        expect(received.dmarc.readyForReject).toMatchObject({ verdict: "not-ready", blockersTotal: 1 })
        expect(received.dmarc.readyForReject.blockers).toEqual([
          expect.objectContaining({
            ip: "198.51.100.7",
            messages: 6,
            reason: expect.stringContaining("spf:bounce.esp.example")
          })
        ])
        expect(received.tls).toMatchObject({
          reports: 1,
          sessions: { successful: 100, failed: 2 },
          failuresByResultType: [{ resultType: "certificate-expired", sessions: 2 }],
          failuresByMx: [{ mx: "mx.perfect.com", sessions: 2 }]
        })

        // the summary endpoint, over the same period, says the same
        const url = new URL(received.summaryUrls.dmarc, "http://any")
        const summary = yield* call("GET", url.pathname + url.search)
        expect(summary.status).toBe(200)
        expect(summary.json).toMatchObject({
          messages: received.dmarc.messages,
          passRate: received.dmarc.passRate,
          readyForReject: { verdict: "not-ready" }
        })

        const markdown = yield* call("GET", "/api/report/everything?domain=perfect.com&format=markdown")
        expect(markdown.text).toContain("## Reports received")
        // perfect.com publishes p=reject: the blocker's mail is refused now
        expect(received.dmarcPolicy).toBe("reject")
        expect(markdown.text).toContain("Ready for p=reject? **It publishes p=reject already,**")
        expect(markdown.text).toContain("| 127.25.0.1 | mx.perfect.com |")

        const page = yield* call("GET", "/report/perfect.com", undefined, { accept: "text/html" })
        expect(page.status).toBe(200)
        expect(page.text).toContain(`<h2 id="received">Reports received</h2>`)
        expect(page.text).toContain(
          "It publishes p=reject already, so receivers refuse this mail now: 1 legitimate-looking source sends mail that fails DMARC"
        )
        expect(page.text).toContain("198.51.100.7")
        expect(page.text).toContain("certificate-expired")

        // a snapshot keeps them as evidence: in its hashed content, and on its page
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        expect(created.status).toBe(201)
        const { summaryUrls: _live, ...liveEssentials } = received
        const { summaryUrls: _stored, ...storedEssentials } = created.json.reportsReceived
        expect(storedEssentials).toEqual(liveEssentials)
        expect(created.json.evidence.contentHash).toBe(recomputed(created.text))
        const { reportsReceived: _r, ...withoutReports } = JSON.parse(created.text)
        expect(recomputed(JSON.stringify(withoutReports))).not.toBe(created.json.evidence.contentHash)
        const snapshotPage = yield* call("GET", `/snapshot/${created.json.evidence.snapshotId}`, undefined, {
          accept: "text/html"
        })
        expect(snapshotPage.text).toContain("so receivers refuse this mail now: 1 legitimate-looking source")
      })
  )

  it.effect("a domain without reports says so, and how to have them sent", () =>
    Effect.gen(function* () {
      const live = yield* call("GET", "/api/report/everything?domain=dmarc-none.com")
      expect(live.json.reportsReceived).toMatchObject({ dmarc: null, tls: null, rua: { dmarc: [], tls: [] } })
      const page = yield* call("GET", "/report/dmarc-none.com", undefined, { accept: "text/html" })
      expect(page.text).toContain("No DMARC aggregate report for this period reached this service.")
      expect(page.text).toContain("at _dmarc.dmarc-none.com")
    })
  )
})
