/**
 * Reports in, against the world: a DMARC aggregate report mailed (gzip, through the built-in SMTP
 * receiver, nodemailer on loopback) and a TLS report posted over HTTP are counted by the summaries,
 * whose sources carry the world's PTR names and SPF-include providers; and a DKIM selector named
 * only by a report (dkim-reported.com's mta2026q4, in no list) is then found by /email/dkim and by
 * the scan.
 */
import { readFileSync } from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import nodemailer from "nodemailer"
import { call, testApp } from "../http/harness.ts"
import { dmarcXml, gzipText, postReport, tlsJson } from "../inbound/reports.ts"
import { freePort } from "../support/processes.ts"
import { worldEnv } from "./env.ts"

const smtpPort = await freePort()
const App = Layer.unwrapEffect(
  Effect.sync(() =>
    testApp({
      ...worldEnv(),
      REPORTS_SMTP_PORT: String(smtpPort),
      REPORTS_SMTP_HOST: "127.0.0.1",
      REPORTS_DOMAINS: "perfect.com"
    })
  )
)

/** Whether the running world serves a scenario (it is built from scenarios.json when it starts). */
const served = (domain: string) => {
  const manifest = JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")) as {
    scenarios: ReadonlyArray<{ domain: string }>
  }
  return manifest.scenarios.some((s) => s.domain === domain)
}

/** Today's period: the summaries read reports by when their period began. */
const day = Math.floor(Date.now() / 86_400_000) * 86_400
const period = `from=${new Date((day - 86_400) * 1000).toISOString()}&to=${new Date((day + 86_400) * 1000).toISOString()}`

const mailReport = (xml: string) =>
  Effect.promise(() =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "noreply-dmarc-support@receiver.example.net",
        to: "dmarc@perfect.com",
        subject: "Report Domain: perfect.com",
        text: "This is an aggregate report.",
        attachments: [
          { filename: "report.xml.gz", content: Buffer.from(gzipText(xml)), contentType: "application/gzip" }
        ]
      })
  )

layer(App, { timeout: 120_000, excludeTestServices: true })("reports in, in the world", (it) => {
  it.effect(
    "a mailed gzip aggregate report and a posted TLS report are counted, with PTRs from the world",
    () =>
      Effect.gen(function* () {
        const xml = dmarcXml({
          domain: "perfect.com",
          org: "World Receiver",
          reportId: `perfect-${Date.now()}`,
          begin: day,
          end: day + 86_399,
          p: "reject",
          rows: [
            {
              ip: "127.25.0.1",
              count: 40,
              dkimAuth: [{ domain: "perfect.com", selector: "selector1", result: "pass" }]
            },
            {
              ip: "203.0.113.5",
              count: 3,
              dkim: "fail",
              spf: "fail",
              disposition: "reject",
              spfAuth: [{ domain: "perfect.com", result: "fail" }]
            }
          ]
        })
        const info = yield* mailReport(xml)
        expect(info.response).toMatch(/^250 2\.0\.0 report perfect-\d+ from World Receiver stored/)
        const tls = tlsJson({
          domain: "perfect.com",
          reportId: `tls-${Date.now()}`,
          failures: [{ type: "validation-failure", count: 2 }]
        })
        const posted = yield* postReport("/api/reports/tls", "application/tlsrpt+gzip", gzipText(tls))
        expect(posted).toMatchObject({ status: 202, json: { domain: "perfect.com", duplicate: false } })
        const t = yield* call("GET", "/api/reports/tls/perfect.com?from=2026-11-24&to=2026-11-25")
        expect(t.json.sessions.failed).toBeGreaterThanOrEqual(2)
        expect(t.json.failuresByMx).toContainEqual(expect.objectContaining({ mx: "mx.perfect.com" }))

        const s = yield* call("GET", `/api/reports/dmarc/perfect.com?${period}`)
        expect(s.status).toBe(200)
        expect(s.json.messages).toBeGreaterThanOrEqual(43)
        const mx = s.json.sources.find((x: { ip: string }) => x.ip === "127.25.0.1")
        expect(mx).toMatchObject({ ptr: "mx.perfect.com", dkimAligned: expect.any(Number) })
        expect(s.json.selectors).toContainEqual(
          expect.objectContaining({ selector: "selector1", domain: "perfect.com" })
        )
        // the spoofing source is not a blocker: nothing legitimate-looking fails
        expect(s.json.readyForReject.verdict).toBe("ready")
      })
  )

  it.effect.skipIf(!served("dkim-reported.com"))(
    "a selector named only by a report (dkim-reported.com's mta2026q4) is then found by /email/dkim and the scan",
    () =>
      Effect.gen(function* () {
        const xml = dmarcXml({
          domain: "dkim-reported.com",
          org: "World Receiver",
          reportId: `reported-${Date.now()}`,
          begin: day,
          end: day + 86_399,
          rows: [
            {
              ip: "127.25.0.1",
              count: 12,
              dkimAuth: [{ domain: "dkim-reported.com", selector: "mta2026q4", result: "pass" }]
            }
          ]
        })
        expect((yield* mailReport(xml)).response).toMatch(/^250 /)
        const s = yield* call("GET", `/api/reports/dmarc/dkim-reported.com?${period}`)
        // 127.25.0.1 is perfect.com's MX, which dkim-reported.com's SPF includes
        expect(s.json.sources[0]).toMatchObject({
          ip: "127.25.0.1",
          provider: "perfect.com",
          providerFrom: "spf-include"
        })
        const dkim = yield* call("GET", "/api/email/dkim?domain=dkim-reported.com")
        expect(dkim.json).toMatchObject({
          state: "confirmed",
          hasDkim: true,
          selectors_found: ["mta2026q4"],
          reportedSelectors: ["mta2026q4"]
        })
        const report = yield* call("GET", "/api/report/everything?domain=dkim-reported.com")
        expect(report.json.machineReadable.scan.checks.dkim.result).toMatchObject({
          state: "confirmed",
          selectors_found: ["mta2026q4"]
        })
      })
  )
})
