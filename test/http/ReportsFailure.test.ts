/**
 * DMARC failure reports over HTTP (POST /api/reports/failure) and over the SMTP receiver: stored
 * once, reduced (no recipient, no local part, no Subject), summarised by source, failure type and
 * identity, counted apart as authenticated or not; bad input refused with a clear 4xx (SMTP: 5xx),
 * and the service keeps serving. One app for the file.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import nodemailer from "nodemailer"
import { freePort } from "../support/processes.ts"
import { postReport } from "../inbound/reports.ts"
import { call, testApp } from "./harness.ts"

const port = await freePort()
const SAMPLES = "../shared/corpora/parsedmarc-samples/samples/failure"
const present = existsSync(SAMPLES)
if (!present) console.warn(`skipping the failure sample cases: ${SAMPLES} is absent (see its README)`)

const NOW = Math.floor(Date.now() / 1000)
const date = (s: number) => new Date(s * 1000).toUTCString()

/** An RFC 6591 report on `domain` about mail from `ip`, arrived `ago` seconds before now. */
const arf = (domain: string, ip: string, ago: number, extra = "") =>
  [
    "From: dmarc-reports@receiver-example.net",
    "To: ruf@reports.failure-example.com",
    `Date: ${date(NOW - ago + 60)}`,
    `Subject: DMARC failure report for ${domain}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "A message failed DMARC.",
    "--b1",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: auth-failure",
    "Version: 1",
    "User-Agent: Example/1.0",
    "Original-Mail-From: <bounce-4711@mailer.example.net>",
    "Original-Rcpt-To: <victim@receiver-example.net>",
    `Arrival-Date: ${date(NOW - ago)}`,
    `Source-IP: ${ip}`,
    `Reported-Domain: ${domain}`,
    "Auth-Failure: dkim",
    "DKIM-Domain: " + domain,
    "DKIM-Selector: s2026",
    `Authentication-Results: receiver-example.net; dkim=fail header.d=${domain}; dmarc=fail header.from=${domain}`,
    extra,
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Received: from mailer.example.net (mailer.example.net [${ip}]) by mx.receiver-example.net with ESMTP id 1 for <victim@receiver-example.net>; ${date(NOW - ago)}`,
    `From: "Alice" <alice@${domain}>`,
    "To: <victim@receiver-example.net>",
    "Subject: secret plans",
    "",
    "--b1--",
    ""
  ].join("\r\n")

const post = (body: string, type = "message/rfc822") =>
  postReport("/api/reports/failure", type, new Uint8Array(Buffer.from(body, "latin1")))

const mail = (raw: string) =>
  Effect.tryPromise(() =>
    nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true }).sendMail({
      envelope: { from: "dmarc-reports@receiver-example.net", to: ["ruf@reports.failure-example.com"] },
      raw
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

const period = `from=${new Date((NOW - 10 * 86_400) * 1000).toISOString()}&to=${new Date((NOW + 86_400) * 1000).toISOString()}`

layer(
  testApp({
    REPORTS_SMTP_PORT: String(port),
    REPORTS_SMTP_HOST: "127.0.0.1",
    REPORTS_DOMAINS: "reports.failure-example.com",
    REPORTS_MAX_BYTES: "200000",
    REPORTS_RETENTION: "P30D"
  }),
  // the real clock: retention is judged against now
  { timeout: 60_000, excludeTestServices: true }
)("failure reports in", (it) => {
  it.effect("an ARF report posted is stored once, reduced, and summarised", () =>
    Effect.gen(function* () {
      const first = yield* post(arf("failure-example.com", "192.0.2.44", 3_600))
      expect(first.status, JSON.stringify(first.json)).toBe(202)
      expect(first.json).toMatchObject({
        domain: "failure-example.com",
        reporter: "receiver-example.net",
        format: "arf",
        sourceIp: "192.0.2.44",
        failures: ["dkim"],
        duplicate: false,
        bodyKept: false,
        authenticated: true,
        authentication: "posted over HTTP from this machine"
      })
      const again = yield* post(arf("failure-example.com", "192.0.2.44", 3_600))
      expect(again.json).toMatchObject({ duplicate: true })
      yield* post(arf("failure-example.com", "192.0.2.44", 7_200))
      yield* post(arf("failure-example.com", "198.51.100.9", 60))
      const summary = yield* call("GET", `/api/reports/failure/failure-example.com?${period}`)
      expect(summary.status).toBe(200)
      expect(summary.json).toMatchObject({
        domain: "failure-example.com",
        reports: 3,
        authenticated: 3,
        unauthenticated: 0,
        sourcesTotal: 2,
        bySource: [
          { sourceIp: "192.0.2.44", reports: 2, failures: ["dkim"] },
          { sourceIp: "198.51.100.9", reports: 1 }
        ],
        byFailureType: [{ type: "dkim", reports: 3 }],
        byIdentity: [
          { mechanism: "dkim", domain: "failure-example.com", selector: "s2026", reports: 3 },
          { mechanism: "spf", domain: "mailer.example.net", selector: null, reports: 3 }
        ],
        reporters: [{ name: "receiver-example.net", reports: 3, authenticated: 3 }]
      })
      expect(JSON.stringify(summary.json)).not.toMatch(/victim|alice|secret plans|bounce-4711/)
    })
  )

  it.effect.skipIf(!present)("the sample set's plain-text variant is taken as text/plain", () =>
    Effect.gen(function* () {
      const text = readFileSync(join(SAMPLES, "exim_plain_text_only_no_arf_part.eml"), "latin1")
      // its arrival (2025) is older than this app's REPORTS_RETENTION (30 days): refused, never 202
      const old = yield* post(text, "text/plain")
      expect(old.status, JSON.stringify(old.json)).toBe(400)
      expect(old.json.error).toMatch(/longer ago than this service keeps reports/)
      const fresh = text.replace(/Received date: .*/, `Received date: ${date(NOW - 600)}`)
      const taken = yield* post(fresh, "text/plain; charset=us-ascii")
      expect(taken.status, JSON.stringify(taken.json)).toBe(202)
      expect(taken.json).toMatchObject({
        domain: "example.com",
        format: "plain-text",
        sourceIp: "203.0.113.68",
        failures: ["dkim", "dmarc", "spf"]
      })
    })
  )

  it.effect("bad input gets a clear 4xx and the service keeps serving", () =>
    Effect.gen(function* () {
      const json = yield* post("{}", "application/json")
      expect(json.status).toBe(415)
      const notReport = yield* post("Subject: hello\r\n\r\njust a letter\r\n")
      expect(notReport.status).toBe(415)
      expect(notReport.json.error).toMatch(/not a failure report/)
      const abuse = yield* post(arf("failure-example.com", "192.0.2.1", 60).replace("auth-failure", "abuse"))
      expect(abuse.status).toBe(415)
      const noDomain = yield* post(
        "Content-Type: message/feedback-report\r\n\r\nFeedback-Type: auth-failure\r\nSource-IP: 192.0.2.1\r\n"
      )
      expect(noDomain.status).toBe(400)
      expect(noDomain.json.error).toMatch(/names no domain/)
      const huge = yield* post(arf("failure-example.com", "192.0.2.1", 60, `X-Pad: ${"x".repeat(250_000)}`))
      expect(huge.status).toBe(413)
      const badPeriod = yield* call("GET", "/api/reports/failure/failure-example.com?from=yesterday")
      expect(badPeriod.status).toBe(400)
      expect((yield* call("GET", "/api/health")).status).toBe(200)
    })
  )

  it.effect("a failure report mailed to the receiver is stored, unauthenticated, and said why", () =>
    Effect.gen(function* () {
      const sent = yield* mail(arf("mailed-failure.com", "203.0.113.7", 600))
      expect(sent.ok, sent.response).toBe(true)
      // the test's DNS answers nothing: DMARC of receiver-example.net cannot be looked up
      expect(sent.response).toMatch(
        /failure report on mailed-failure\.com from receiver-example\.net stored; /
      )
      const summary = yield* call("GET", `/api/reports/failure/mailed-failure.com?${period}`)
      expect(summary.json).toMatchObject({ reports: 1, authenticated: 0, unauthenticated: 1 })
      const junk = yield* mail(
        "From: a@receiver-example.net\r\nTo: ruf@reports.failure-example.com\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: auth-failure\r\n"
      )
      expect(junk.ok).toBe(false)
      expect(junk.response).toMatch(/^550 5\.6\.0 report refused: the failure report names no domain/)
    })
  )
})
