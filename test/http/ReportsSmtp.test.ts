/**
 * The reports SMTP receiver on loopback, driven by nodemailer's SMTP client: 250 only once the
 * mailed report is stored (and the summary counts it), RCPT refused for domains not in
 * REPORTS_DOMAINS, a 5xx naming the problem for a malformed report or an oversized message.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import nodemailer from "nodemailer"
import { dmarcXml, gzipText, tlsJson } from "../inbound/reports.ts"
import { freePort } from "../support/processes.ts"
import { call, testApp } from "./harness.ts"

const port = await freePort()

const mail = (
  to: string,
  attachments: ReadonlyArray<{ filename: string; content: Uint8Array | string; contentType: string }>,
  text = "report"
) =>
  Effect.tryPromise(() =>
    nodemailer
      .createTransport({
        host: "127.0.0.1",
        port,
        secure: false,
        ignoreTLS: true,
        tls: { rejectUnauthorized: false }
      })
      .sendMail({
        from: "noreply-dmarc@receiver-example.com",
        to,
        subject: "Report Domain: smtp-reports.com",
        text,
        attachments: attachments.map((a) => ({
          ...a,
          content: typeof a.content === "string" ? a.content : Buffer.from(a.content)
        }))
      })
  ).pipe(
    Effect.map((info) => ({ ok: true as const, response: info.response })),
    Effect.catchAll((e) =>
      Effect.succeed({
        ok: false as const,
        response: String((e.error as { response?: string }).response ?? e.error)
      })
    )
  )

layer(
  testApp({
    REPORTS_SMTP_PORT: String(port),
    REPORTS_SMTP_HOST: "127.0.0.1",
    REPORTS_DOMAINS: "reports.smtp-reports.com",
    REPORTS_MAX_BYTES: "200000"
  })
)("the reports SMTP receiver", (it) => {
  it.effect("stores a mailed gzip aggregate report and a TLS report before answering 250", () =>
    Effect.gen(function* () {
      const xml = dmarcXml({
        domain: "smtp-reports.com",
        reportId: "m-1",
        rows: [{ ip: "192.0.2.9", count: 7 }]
      })
      const sent = yield* mail("rua@reports.smtp-reports.com", [
        {
          filename: "receiver!smtp-reports.com!1!2.xml.gz",
          content: gzipText(xml),
          contentType: "application/gzip"
        }
      ])
      expect(sent.ok, sent.response).toBe(true)
      expect(sent.response).toMatch(/^250 2\.0\.0 report m-1 from Example Receiver stored/)
      const again = yield* mail("rua@reports.smtp-reports.com", [
        { filename: "r.xml.gz", content: gzipText(xml), contentType: "application/gzip" }
      ])
      expect(again.response).toMatch(/already stored/)
      const tls = yield* mail("tlsrpt@reports.smtp-reports.com", [
        {
          filename: "r.json.gz",
          content: gzipText(tlsJson({ domain: "smtp-reports.com" })),
          contentType: "application/tlsrpt+gzip"
        }
      ])
      expect(tls.ok, tls.response).toBe(true)
      const s = yield* call("GET", "/api/reports/dmarc/smtp-reports.com?from=2025-11-01&to=2025-12-01")
      expect(s.json).toMatchObject({ reports: 1, messages: 7 })
      const t = yield* call("GET", "/api/reports/tls/smtp-reports.com?from=2026-11-01&to=2026-12-01")
      expect(t.json).toMatchObject({ reports: 1, sessions: { successful: 100, failed: 0 } })
    })
  )

  it.effect(
    "refuses recipients outside REPORTS_DOMAINS, malformed reports and oversized messages with a 5xx",
    () =>
      Effect.gen(function* () {
        const wrong = yield* mail("rua@elsewhere.com", [
          { filename: "r.xml", content: "<feedback/>", contentType: "application/xml" }
        ])
        expect(wrong.ok).toBe(false)
        expect(wrong.response).toMatch(/^550 5\.1\.1 .*takes reports only for reports\.smtp-reports\.com/)
        const broken = yield* mail("rua@reports.smtp-reports.com", [
          { filename: "r.xml", content: "<feedback><report_metadata>", contentType: "application/xml" }
        ])
        expect(broken.response).toMatch(/^550 5\.6\.0 report refused: the XML is not well-formed/)
        const none = yield* mail("rua@reports.smtp-reports.com", [])
        expect(none.response).toMatch(/^550 5\.6\.0 report refused: the message carries no report attachment/)
        const big = yield* mail("rua@reports.smtp-reports.com", [], "x".repeat(300_000))
        expect(big.ok).toBe(false)
        expect(big.response).toMatch(/^552/)
        expect((yield* call("GET", "/api/health")).status).toBe(200)
      })
  )
})
