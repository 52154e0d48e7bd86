/**
 * Who sent a mailed report, against the world: an aggregate report from perfect.com signed with its
 * world DKIM key (selector1) passes DMARC for perfect.com and is authenticated; a forged one "from
 * google.com", unsigned, is not, and says why. The summary counts them apart, and readyForReject
 * rests on the authenticated report alone: the forged report's legitimate-looking failing source
 * does not make the domain "not ready".
 */
import { readFileSync } from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { dkimSign } from "mailauth"
import nodemailer from "nodemailer"
import { call, testApp } from "../http/harness.ts"
import { dmarcXml, gzipText } from "../inbound/reports.ts"
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

/** The private key of a world DKIM selector, from the manifest. */
const worldKey = (domain: string, selector: string): string => {
  const manifest = JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")) as {
    scenarios: Array<{ domain: string; dkim?: Array<{ selector: string; privateKey: string | null }> }>
  }
  const file = manifest.scenarios
    .find((s) => s.domain === domain)
    ?.dkim?.find((d) => d.selector === selector)?.privateKey
  if (!file) throw new Error(`the world manifest has no private key for ${selector}._domainkey.${domain}`)
  return readFileSync(file, "utf8")
}

const day = Math.floor(Date.now() / 86_400_000) * 86_400
const period = `from=${new Date((day - 86_400) * 1000).toISOString()}&to=${new Date((day + 86_400) * 1000).toISOString()}`

/** A report message as a receiver mails it: a gzip attachment (RFC 7489 7.2.1.1). */
const reportMessage = (from: string, xml: string) => {
  const gzip = Buffer.from(gzipText(xml)).toString("base64").replace(/.{76}/g, "$&\r\n")
  return [
    `From: ${from}`,
    "To: dmarc@perfect.com",
    "Subject: Report Domain: authentic-reports.com",
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@${from.split("@")[1]}>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="r"',
    "",
    "--r",
    "Content-Type: text/plain",
    "",
    "An aggregate report.",
    "--r",
    'Content-Type: application/gzip; name="report.xml.gz"',
    "Content-Transfer-Encoding: base64",
    "",
    gzip,
    "--r--",
    ""
  ].join("\r\n")
}

const signed = (raw: string, domain: string, selector: string) =>
  Effect.promise(async () => {
    const out = await dkimSign(raw, {
      canonicalization: "relaxed/relaxed",
      signatureData: [{ signingDomain: domain, selector, privateKey: worldKey(domain, selector) }]
    } as unknown as Parameters<typeof dkimSign>[1])
    if (out.errors.length > 0) throw new Error(String(out.errors[0]))
    return out.signatures + raw
  })

const send = (mailFrom: string, raw: string) =>
  Effect.promise(() =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: mailFrom, to: ["dmarc@perfect.com"] }, raw })
  )

layer(App, { timeout: 120_000, excludeTestServices: true })("mailed reports, authenticated", (it) => {
  it.effect("a signed report counts; a forged one is counted apart and cannot move readyForReject", () =>
    Effect.gen(function* () {
      const domain = "authentic-reports.com"
      const genuine = dmarcXml({
        domain,
        org: "perfect.com",
        reportId: `genuine-${Date.now()}`,
        begin: day,
        end: day + 86_399,
        rows: [{ ip: "192.0.2.10", count: 50, dkimAuth: [{ domain, selector: "s1", result: "pass" }] }]
      })
      const raw = yield* signed(
        reportMessage("dmarc-reports@perfect.com", genuine),
        "perfect.com",
        "selector1"
      )
      const ok = yield* send("dmarc-reports@perfect.com", raw)
      expect(ok.response).toMatch(/stored; DMARC pass for perfect\.com \(aligned: DKIM d=perfect\.com/)

      // a source that passes DKIM as an ESP but fails DMARC: a blocker, if this report were believed
      const forged = dmarcXml({
        domain,
        org: "google.com",
        reportId: `forged-${Date.now()}`,
        begin: day,
        end: day + 86_399,
        rows: [
          {
            ip: "198.51.100.77",
            count: 500,
            dkim: "fail",
            spf: "fail",
            dkimAuth: [{ domain: "esp.example", selector: "k1", result: "pass" }],
            spfAuth: [{ domain: "esp.example", result: "pass" }]
          }
        ]
      })
      const bad = yield* send(
        "noreply-dmarc-support@google.com",
        reportMessage("noreply-dmarc-support@google.com", forged)
      )
      expect(bad.response).toMatch(
        /stored; .*no DKIM signature and SPF \w+ for google\.com from 127\.0\.0\.1/
      )

      const s = yield* call("GET", `/api/reports/dmarc/${domain}?${period}`)
      expect(s.status).toBe(200)
      expect(s.json.messages).toBe(550)
      expect(s.json.authenticity).toMatchObject({
        authenticatedReports: 1,
        unauthenticatedReports: 1,
        authenticatedReporters: ["perfect.com"],
        unauthenticatedReporters: ["google.com"],
        verdictFrom: "authenticated reports"
      })
      expect(s.json.readyForReject.verdict).toBe("ready")
      expect(s.json.readyForReject.note).toMatch(/^From the 1 authenticated report\(s\) only/)
    })
  )
})
