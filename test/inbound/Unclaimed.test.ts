/**
 * Reports kept apart (docs/access.md "Unclaimed reports"), over a SQLite database on the test clock:
 * a report mailed to a tenant for a domain it has not verified is in no table the summaries read;
 * it moves there when the tenant verifies the domain (the hourly pass, as on a runner that did not
 * see the verification), and is deleted after REPORTS_UNCLAIMED_RETENTION otherwise. Who the route
 * sends a report to follows from its recipients' tenants (routeFor).
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Layer, TestClock } from "effect"
import { AppConfig } from "../../src/Config.ts"
import type { Authenticity } from "../../src/inbound/Authenticity.ts"
import { FailureReportsIn } from "../../src/inbound/FailureReportsIn.ts"
import { ReportRecipients, routeFor } from "../../src/inbound/ReportRecipients.ts"
import { ReportsIn } from "../../src/inbound/ReportsIn.ts"
import { UnclaimedReportsIn } from "../../src/inbound/UnclaimedReportsIn.ts"
import { failureCount } from "../../src/store/FailureReports.ts"
import { dmarcReports, tlsPolicies } from "../../src/store/InboundReports.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { unclaimedCount } from "../../src/store/UnclaimedReports.ts"
import { dmarcXml, tlsJson } from "./reports.ts"

/** The (tenant, domain) pairs verified now, as the tenants' store would answer. */
const verified = new Set<string>()

const recipients: ReportRecipients["Type"] = {
  check: () => Effect.succeed("accept"),
  tenantOf: (localPart) => Effect.succeed(localPart),
  verifiedBy: (tenant, domain) => Effect.sync(() => verified.has(`${tenant} ${domain}`))
}

const DKIM_PASS: Authenticity = {
  authenticated: true,
  authenticatedFor: "receiver-example.com",
  authentication: "DMARC pass for receiver-example.com (DKIM)"
}

/** A message carrying a DMARC report on `domain` (or the report given), as a receiver mails it. */
const aggregate = (
  domain: string,
  reportId: string,
  report = { type: "application/xml", name: "report.xml", text: "" }
) =>
  new TextEncoder().encode(
    [
      "From: noreply-dmarc@receiver-example.com",
      "To: acme@reports.example",
      `Subject: Report Domain: ${domain}`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain",
      "",
      "report",
      "--b1",
      `Content-Type: ${report.type}`,
      `Content-Disposition: attachment; filename="${report.name}"`,
      "",
      report.text || dmarcXml({ domain, reportId, rows: [{ ip: "192.0.2.7", count: 5 }] }),
      "--b1--",
      ""
    ].join("\r\n")
  )

/** An RFC 6591 failure report on `domain`. */
const failure = (domain: string) =>
  new TextEncoder().encode(
    [
      "From: dmarc-reports@receiver-example.net",
      "To: acme@reports.example",
      "Date: Tue, 25 Nov 2025 10:00:00 GMT",
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
      "Arrival-Date: Tue, 25 Nov 2025 09:59:00 GMT",
      "Source-IP: 192.0.2.9",
      `Reported-Domain: ${domain}`,
      "Auth-Failure: dkim",
      "--b1",
      "Content-Type: text/rfc822-headers",
      "",
      `From: <alice@${domain}>`,
      "",
      "--b1--",
      ""
    ].join("\r\n")
  )

const service = () => {
  const dataDir = mkdtempSync(join(tmpdir(), "unclaimed-"))
  const config = AppConfig.Default.pipe(
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map([
            ["DATA_DIR", dataDir],
            ["REPORTS_UNCLAIMED_RETENTION", "PT2H"]
          ])
        )
      )
    )
  )
  const base = Layer.mergeAll(sqliteAt(join(dataDir, "domain-audit.sqlite")), config)
  const inbound = Layer.mergeAll(ReportsIn.Default, FailureReportsIn.Default).pipe(Layer.provideMerge(base))
  return UnclaimedReportsIn.Default.pipe(
    Layer.provideMerge(inbound),
    Layer.provideMerge(Layer.succeed(ReportRecipients, recipients))
  )
}

const route = (tenants: ReadonlyArray<string | null>) => (domains: ReadonlyArray<string>) =>
  routeFor(recipients, tenants, domains)

const storedReports = (domain: string) => Effect.map(dmarcReports(domain, 0, 4e9), (rows) => rows.length)

describe("unclaimed reports", () => {
  it.scoped(
    "wait unseen, are stored once their tenant verifies the domain, and go when their time is up",
    () =>
      Effect.gen(function* () {
        const inbound = yield* ReportsIn
        const failures = yield* FailureReportsIn
        const unclaimed = yield* UnclaimedReportsIn
        const sql = yield* SqlClient.SqlClient
        const count = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
          Effect.provideService(effect, SqlClient.SqlClient, sql)

        // mailed to acme, for domains acme has not verified: kept apart, in nothing the summaries read
        const first = yield* inbound.mail(
          aggregate("waiting-customer.com", "w-1"),
          Effect.succeed(DKIM_PASS),
          route(["acme"])
        )
        expect(first).toMatchObject({ domain: "waiting-customer.com", duplicate: false, authenticated: true })
        const again = yield* inbound.mail(
          aggregate("waiting-customer.com", "w-1"),
          Effect.succeed(DKIM_PASS),
          route(["acme"])
        )
        expect(again.duplicate).toBe(true)
        yield* failures.take(
          failure("waiting-customer.com"),
          "smtp",
          Effect.succeed(DKIM_PASS),
          route(["acme", "acme"])
        )
        yield* inbound.mail(
          aggregate("forgotten-customer.com", "f-1"),
          Effect.succeed(DKIM_PASS),
          route(["acme"])
        )
        expect(yield* count(storedReports("waiting-customer.com"))).toBe(0)
        expect(yield* count(failureCount("waiting-customer.com", 0, 4e9))).toBe(0)
        expect(yield* count(unclaimedCount("waiting-customer.com"))).toBe(2)

        // the pass leaves them while no one has verified; another tenant's verification is not acme's
        verified.add("globex waiting-customer.com")
        expect(yield* unclaimed.pass).toBe(0)
        // acme verifies: its waiting reports are stored, with the verdict made when they arrived
        verified.add("acme waiting-customer.com")
        expect(yield* unclaimed.pass).toBe(2)
        expect(yield* count(storedReports("waiting-customer.com"))).toBe(1)
        expect(yield* count(failureCount("waiting-customer.com", 0, 4e9))).toBe(1)
        expect(yield* count(unclaimedCount("waiting-customer.com"))).toBe(0)
        const authenticated = yield* Effect.provideService(
          sql<{
            authenticated: number
          }>`SELECT authenticated FROM inbound_report WHERE domain = 'waiting-customer.com'`,
          SqlClient.SqlClient,
          sql
        )
        expect(authenticated).toEqual([{ authenticated: 1 }])
        // now verified, a report mailed to acme is stored at once
        yield* inbound.mail(
          aggregate("waiting-customer.com", "w-2"),
          Effect.succeed(DKIM_PASS),
          route(["acme"])
        )
        expect(yield* count(storedReports("waiting-customer.com"))).toBe(2)

        // a TLS report that also names a domain acme has not verified waits until acme has verified both
        const both = JSON.parse(tlsJson({ domain: "waiting-customer.com", reportId: "t-2" }))
        both.policies.push(...JSON.parse(tlsJson({ domain: "elsewhere-customer.com" })).policies)
        const tls = { type: "application/tlsrpt+json", name: "report.json", text: JSON.stringify(both) }
        yield* inbound.mail(
          aggregate("waiting-customer.com", "t-2", tls),
          Effect.succeed(DKIM_PASS),
          route(["acme"])
        )
        const tlsStored = (domain: string) =>
          count(Effect.map(tlsPolicies(domain, 0, 4e9), (rows) => rows.length))
        expect(yield* tlsStored("elsewhere-customer.com")).toBe(0)
        expect(yield* unclaimed.pass).toBe(0)
        expect(yield* count(unclaimedCount("waiting-customer.com"))).toBe(1)
        verified.add("acme elsewhere-customer.com")
        expect(yield* unclaimed.pass).toBe(1)
        expect(yield* tlsStored("elsewhere-customer.com")).toBe(1)
        expect(yield* tlsStored("waiting-customer.com")).toBe(1)

        // the one no one claims is deleted after REPORTS_UNCLAIMED_RETENTION (two hours here), not
        // before, by the hourly pass
        yield* TestClock.adjust("90 minutes")
        expect(yield* count(unclaimedCount("forgotten-customer.com"))).toBe(1)
        yield* TestClock.adjust("2 hours")
        expect(yield* count(unclaimedCount("forgotten-customer.com"))).toBe(0)
        expect(yield* count(storedReports("forgotten-customer.com"))).toBe(0)
      }).pipe(Effect.provide(service()))
  )

  it.effect("are stored whenever a recipient's tenant has verified the domain, or no tenant exists", () =>
    Effect.gen(function* () {
      verified.add("acme shared-customer.com")
      expect(yield* routeFor(recipients, ["globex", "acme"], ["shared-customer.com"])).toEqual({
        to: "store"
      })
      expect(yield* routeFor(recipients, ["globex", "globex"], ["shared-customer.com"])).toEqual({
        to: "unclaimed",
        tenants: ["globex"]
      })
      // no key at all (the embedded default): every report is stored, as before
      expect(yield* routeFor(recipients, [null], ["nobody-customer.com"])).toEqual({ to: "store" })
      expect(yield* routeFor(recipients, [], ["nobody-customer.com"])).toEqual({ to: "store" })
      // every domain a report names must be the tenant's
      expect(yield* routeFor(recipients, ["acme"], ["shared-customer.com", "nobody-customer.com"])).toEqual({
        to: "unclaimed",
        tenants: ["acme"]
      })
    })
  )
})
