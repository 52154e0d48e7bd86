/**
 * The largest aggregate report the limits allow (REPORTS_MAX_RECORDS records, gzipped, as a big
 * receiver sends it) is stored over HTTP and over SMTP while the service keeps answering
 * /api/health: the report is read as a stream and the reader yields between turns. No timing is
 * asserted, only that health answered while the report was being read.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import nodemailer from "nodemailer"
import { DEFAULT_LIMITS } from "../../src/inbound/Refusal.ts"
import { gzipText, largeDmarcXml, postReport } from "../inbound/reports.ts"
import { freePort } from "../support/processes.ts"
import { call, testApp } from "./harness.ts"

const port = await freePort()
const RECORDS = DEFAULT_LIMITS.maxRecords

/** Ask /api/health until `done` is set; how many answered 200 while it was not. */
const healthWhile = (done: { value: boolean }) =>
  Effect.gen(function* () {
    let answered = 0
    while (!done.value) {
      const r = yield* call("GET", "/api/health")
      if (r.status === 200 && !done.value) answered++
      yield* Effect.sleep("50 millis")
    }
    return answered
  })

const whileHealthAsked = <A, E, R>(ingest: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const done = { value: false }
    const health = yield* Effect.fork(healthWhile(done))
    const result = yield* ingest.pipe(Effect.ensuring(Effect.sync(() => void (done.value = true))))
    return { result, healthAnswers: yield* Fiber.join(health) }
  })

layer(
  testApp({
    REPORTS_SMTP_PORT: String(port),
    REPORTS_SMTP_HOST: "127.0.0.1",
    REPORTS_DOMAINS: "reports.large-example.com"
  }),
  { timeout: 600_000, excludeTestServices: true }
)("the largest report the limits allow", (it) => {
  it.effect(
    "is stored over HTTP, gzipped, while /api/health answers",
    () =>
      Effect.gen(function* () {
        const gz = gzipText(largeDmarcXml("large-example.com", RECORDS, "large-http"))
        const { result, healthAnswers } = yield* whileHealthAsked(
          postReport("/api/reports/dmarc", "application/gzip", gz)
        )
        expect(result.status, JSON.stringify(result.json)).toBe(202)
        expect(result.json).toMatchObject({ records: RECORDS, duplicate: false, warnings: [] })
        expect(healthAnswers).toBeGreaterThan(0)
      }),
    600_000
  )

  it.effect(
    "is stored over SMTP, gzipped, while /api/health answers",
    () =>
      Effect.gen(function* () {
        const gz = gzipText(largeDmarcXml("large-example.com", RECORDS, "large-smtp"))
        const send = Effect.tryPromise(() =>
          nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true }).sendMail({
            from: "noreply-dmarc@large-receiver.example",
            to: "rua@reports.large-example.com",
            subject: "Report Domain: large-example.com",
            text: "report",
            attachments: [{ filename: "r.xml.gz", content: Buffer.from(gz), contentType: "application/gzip" }]
          })
        )
        const { result, healthAnswers } = yield* whileHealthAsked(send)
        expect(result.response).toMatch(/^250 2\.0\.0 report large-smtp from Large Receiver stored/)
        expect(healthAnswers).toBeGreaterThan(0)
        const s = yield* call("GET", "/api/reports/dmarc/large-example.com?from=2025-11-01&to=2025-12-01")
        expect(s.status).toBe(200)
        expect(s.json).toMatchObject({ reports: 2, sourcesTotal: RECORDS })
      }),
    600_000
  )
})
