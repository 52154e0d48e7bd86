/**
 * Verified domains over HTTP, with DNS answered by a scriptable server: two tenants claim the same
 * domain, one publishes its challenge and is verified, the other is not; a tenant's reports:read key
 * reads the reports of its verified domains only, and its reports:write key posts for them only; a
 * report mailed to the tenant's tag address before it verified waits unseen, and is stored once it
 * does; a failed look-up (SERVFAIL) lapses nothing, the record gone does; publishing the reports
 * needs a verified claim and shows them in the public report. LOCAL_ADMIN=false throughout, so the
 * test's loopback client is a stranger. One app for the file.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as DnsPacket from "dns-packet"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import nodemailer from "nodemailer"
import { dmarcXml, gzipText, tlsJson } from "../inbound/reports.ts"
import { freePort } from "../support/processes.ts"
import { fakeDnsServer, reply } from "../net/FakeDnsServer.ts"
import { call, testApp } from "./harness.ts"

const DOMAIN = "shared-customer.com"
const CHALLENGE = `_domain-audit-challenge.${DOMAIN}`

const keysAt = (dataDir: string) =>
  ApiKeysCommandLive.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
  )

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

const smtpPort = await freePort()
const REPORTS_DOMAIN = "reports.audit-test.com"

const today = Math.floor(Date.now() / 86_400_000) * 86_400

/** A DMARC aggregate report of yesterday for the domain, posted with `key`. */
const postReport = (key: string, reportId = "r1") =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(
      HttpClientRequest.post("/api/reports/dmarc").pipe(
        HttpClientRequest.setHeaders(bearer(key)),
        HttpClientRequest.bodyText(
          dmarcXml({
            domain: DOMAIN,
            reportId,
            begin: today - 86_400,
            end: today - 1,
            rows: [{ ip: "192.0.2.1", count: 7 }]
          }),
          "application/xml"
        )
      )
    )
  ).pipe(
    Effect.flatMap((r) => Effect.map(r.text, (text) => ({ status: r.status, text }))),
    Effect.scoped
  )

/** A DMARC report of the domain mailed to `to`: the server's reply, or its refusal. */
const mail = (to: string, reportId: string) =>
  Effect.tryPromise(() =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: "noreply-dmarc@receiver-example.com",
        to,
        subject: `Report Domain: ${DOMAIN}`,
        text: "report",
        attachments: [
          {
            filename: "report.xml.gz",
            contentType: "application/gzip",
            content: Buffer.from(
              gzipText(
                dmarcXml({
                  domain: DOMAIN,
                  reportId,
                  begin: today - 86_400,
                  end: today - 1,
                  rows: [{ ip: "192.0.2.2", count: 3 }]
                })
              )
            )
          }
        ]
      })
  ).pipe(
    Effect.map((info) => info.response),
    Effect.catchAll((e) => Effect.succeed(String((e.error as { response?: string }).response ?? e.error)))
  )

/** What the public report says of the reports received for the domain. */
const publicReceived = Effect.map(call("GET", `/api/report/everything?domain=${DOMAIN}`), (r) => {
  expect(r.status).toBe(200)
  return r.json.reportsReceived
})

describe("verified domains", () => {
  it.live(
    "are claimed, verified, lapsed and published per tenant, and open a tenant's reports",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-domains-"))
        const [a, b, admin] = yield* Effect.gen(function* () {
          const keys = yield* ApiKeys
          const make = (tenant: string, scopes: ReadonlyArray<"reports:read" | "reports:write" | "admin">) =>
            Effect.map(keys.create({ tenant, scopes, validForMs: null }), (k) => k.key)
          return [
            yield* make("msp-a", ["reports:read", "reports:write"]),
            yield* make("msp-b", ["reports:read", "reports:write"]),
            yield* make("ops", ["admin"])
          ] as const
        }).pipe(Effect.provide(keysAt(dataDir)))

        // what the fake DNS answers for the challenge: records, or a failure
        let challenge: ReadonlyArray<string> | "SERVFAIL" = []
        const server = yield* fakeDnsServer((q) => {
          const question = q.questions![0]!
          const name = question.name.toLowerCase()
          // the domain exists with no records (the report page refuses a name that does not)
          if (name === DOMAIN) return reply(q, [])
          if (name !== CHALLENGE || question.type !== "TXT")
            return reply(q, [], { rcode: "NXDOMAIN" } as object)
          if (challenge === "SERVFAIL") return reply(q, [], { rcode: "SERVFAIL" } as object)
          return reply(
            q,
            challenge.map(
              (text) =>
                ({ type: "TXT", name: question.name, ttl: 60, class: "IN", data: [text] }) as DnsPacket.Answer
            )
          )
        })

        yield* Effect.gen(function* () {
          // no key: no tenant to act for
          const anonymous = yield* call("GET", "/api/domains")
          expect([anonymous.status, anonymous.json.error]).toEqual([401, expect.stringContaining("API key")])
          const badKey = yield* call("GET", "/api/domains", undefined, bearer("da_short"))
          expect(badKey.status).toBe(401)

          const claimA = yield* call(
            "POST",
            "/api/domains",
            { domain: `https://${DOMAIN.toUpperCase()}/` },
            bearer(a)
          )
          expect(claimA.status).toBe(201)
          // the report address is the tenant's random tag, never its name
          const address: string = claimA.json.reporting.address
          const tag = address.slice(0, address.indexOf("@"))
          expect(tag).toMatch(/^[a-z2-7]{16}$/)
          expect(claimA.text).not.toContain("msp-a")
          expect(claimA.json).toMatchObject({
            domain: DOMAIN,
            state: "pending",
            challenge: {
              name: CHALLENGE,
              type: "TXT",
              value: expect.stringMatching(/^domain-audit-verification=/)
            },
            verifiedAt: null,
            publicReports: false,
            reporting: {
              address: `${tag}@${REPORTS_DOMAIN}`,
              dmarc: { name: `_dmarc.${DOMAIN}`, type: "TXT", rua: `rua=mailto:${tag}@${REPORTS_DOMAIN}` },
              tlsRpt: {
                name: `_smtp._tls.${DOMAIN}`,
                type: "TXT",
                value: `v=TLSRPTv1; rua=mailto:${tag}@${REPORTS_DOMAIN}`
              }
            }
          })
          // each tenant's tag address takes reports (in any case); its name, and any other, is refused
          expect(yield* mail(`${tag.toUpperCase()}@${REPORTS_DOMAIN}`, "by-mail")).toMatch(/^250 /)
          for (const stranger of ["msp-a", "nobody", "aaaaaaaaaaaaaaaa"])
            expect(yield* mail(`${stranger}@${REPORTS_DOMAIN}`, "nobody")).toMatch(
              /^550 5\.1\.1 .*no such report address/
            )
          // mailed for a domain its tenant has not verified: kept apart, shown to no one, the operator neither
          const unseen = yield* call("GET", `/api/reports/dmarc/${DOMAIN}`, undefined, bearer(admin))
          expect(unseen.json.messages).toBe(0)
          // a tenant's key posts reports only for the domains its tenant has verified
          const forged = yield* postReport(b, "forged")
          expect(forged.status).toBe(403)
          expect(forged.text).toContain(`${DOMAIN} is not verified for this API key's tenant`)
          expect(forged.text).not.toMatch(/msp-a|msp-b/)
          const claimB = yield* call("POST", "/api/domains", { domain: DOMAIN }, bearer(b))
          expect(claimB.json.challenge.value).not.toBe(claimA.json.challenge.value)
          // each tenant has its own tag, the same at every look
          expect(claimB.json.reporting.address).not.toBe(address)
          const looked = yield* call("GET", `/api/domains/${DOMAIN}`, undefined, bearer(a))
          expect(looked.json.reporting.address).toBe(address)
          // claiming again answers the same claim
          const again = yield* call("POST", "/api/domains", { domain: DOMAIN }, bearer(a))
          expect(again.json.challenge.value).toBe(claimA.json.challenge.value)
          const bad = yield* call("POST", "/api/domains", { domain: "not a domain" }, bearer(a))
          expect(bad.status).toBe(400)

          const verify = (key: string) =>
            call("POST", `/api/domains/${DOMAIN}/verify`, undefined, bearer(key))
          // nothing published: still pending
          expect((yield* verify(a)).json).toMatchObject({ state: "pending", lastCheck: "not found" })

          // tenant A publishes its token: A is verified, B (whose token is not there) is not
          challenge = [claimA.json.challenge.value, "v=spf1 -all"]
          const verified = yield* verify(a)
          expect(verified.json).toMatchObject({
            state: "verified",
            lastCheck: "found",
            dnssecValidated: false
          })
          expect((yield* verify(b)).json.state).toBe("pending")
          // verified, A's waiting report is A's: stored as if it had just arrived, seen by A and the operator
          const adopted = yield* call("GET", `/api/reports/dmarc/${DOMAIN}`, undefined, bearer(admin))
          expect(adopted.json).toMatchObject({ reports: 1, messages: 3 })
          expect((yield* postReport(b, "forged")).status).toBe(403)
          // a TLS report is the poster's only if every domain it covers is: A's naming another is refused
          const both = JSON.parse(tlsJson({ domain: DOMAIN, reportId: "t-both" }))
          both.policies.push(...JSON.parse(tlsJson({ domain: "other-customer.com" })).policies)
          const tls = yield* Effect.scoped(
            Effect.flatMap(HttpClient.HttpClient, (client) =>
              client.execute(
                HttpClientRequest.post("/api/reports/tls").pipe(
                  HttpClientRequest.setHeaders(bearer(a)),
                  HttpClientRequest.bodyText(JSON.stringify(both), "application/tlsrpt+json")
                )
              )
            ).pipe(Effect.flatMap((r) => Effect.map(r.text, (text) => ({ status: r.status, text }))))
          )
          expect([tls.status, tls.text]).toEqual([
            403,
            expect.stringContaining("other-customer.com is not verified")
          ])

          // reports: A reads, B is told the domain is not verified for it, admin reads all
          const summary = (key: string, domain = DOMAIN) =>
            call("GET", `/api/reports/dmarc/${domain}`, undefined, bearer(key))
          expect((yield* summary(a)).status).toBe(200)
          const refused = yield* summary(b)
          expect([refused.status, refused.json.error]).toEqual([403, expect.stringContaining("not verified")])
          expect(refused.text).not.toMatch(/msp-a|msp-b/)
          expect((yield* summary(a, "other-customer.com")).status).toBe(403)
          expect((yield* summary(admin, "other-customer.com")).status).toBe(200)

          // each tenant lists its own
          const listB = yield* call("GET", "/api/domains", undefined, bearer(b))
          expect(listB.json.domains.map((d: { state: string }) => d.state)).toEqual(["pending"])
          expect((yield* call("GET", "/api/domains/other-customer.com", undefined, bearer(a))).status).toBe(
            404
          )

          // the public report says the reports are private until a verified owner publishes them
          expect((yield* postReport(admin)).status).toBe(202)
          expect(yield* publicReceived).toMatchObject({ private: true, dmarc: null, tls: null })
          const page = yield* call("GET", `/report/${DOMAIN}?lang=nl`)
          expect(page.text).toContain("De ontvangen rapporten van dit domein zijn privé")
          const markdown = yield* call("GET", `/api/report/everything?domain=${DOMAIN}&format=markdown`)
          expect(markdown.text).toContain("The reports received for this domain are private")
          expect((yield* summary(a)).json.messages).toBe(10)

          // publishing needs a verified claim
          const publish = (key: string, value: unknown) =>
            call("PUT", `/api/domains/${DOMAIN}/public-reports`, { public: value }, bearer(key))
          expect((yield* publish(b, true)).status).toBe(403)
          expect((yield* publish(a, "yes")).status).toBe(400)
          expect((yield* publish(a, true)).json.publicReports).toBe(true)
          const shown = yield* publicReceived
          expect(shown.private).toBeUndefined()
          expect(shown.dmarc).toMatchObject({ reports: 2, messages: 10 })

          // a failed look-up changes nothing; the record gone lapses the claim and closes the reports
          challenge = "SERVFAIL"
          const unknown = yield* verify(a)
          expect(unknown.json).toMatchObject({
            state: "verified",
            lastCheck: expect.stringMatching(/^unknown/)
          })
          challenge = []
          expect((yield* verify(a)).json.state).toBe("lapsed")
          expect((yield* summary(a)).status).toBe(403)
          expect((yield* publicReceived).private).toBe(true)

          // deleting: 204, then 404
          expect((yield* call("DELETE", `/api/domains/${DOMAIN}`, undefined, bearer(b))).status).toBe(204)
          expect((yield* call("DELETE", `/api/domains/${DOMAIN}`, undefined, bearer(b))).status).toBe(404)
          expect((yield* call("GET", `/api/domains/${DOMAIN}`, undefined, bearer(a))).json.state).toBe(
            "lapsed"
          )
        }).pipe(
          Effect.provide(
            testApp(
              {
                LOCAL_ADMIN: "false",
                SCAN_CACHE_TTL_MS: "0",
                REPORTS_SMTP_PORT: String(smtpPort),
                REPORTS_SMTP_HOST: "127.0.0.1",
                REPORTS_DOMAINS: REPORTS_DOMAIN,
                DNS_RESOLVERS: `127.0.0.1:${server.port}`
              },
              dataDir
            )
          )
        )
      }).pipe(Effect.scoped),
    120_000
  )
})
