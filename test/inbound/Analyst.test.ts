/**
 * The analyst's fields of the DMARC and TLS summaries (DmarcAnalyst.ts, TlsAnalyst.ts): what each
 * says on hand-made groups, that sums over header-from domains and days equal the totals, that
 * generated stored rows (extremes and unreadable texts included) never make them throw, and that
 * what a report says is stored and read back through SQLite as the summary reads it.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as fc from "fast-check"
import { dailySeries, daysOf, repairOf, shareOut } from "../../src/inbound/DmarcAnalyst.ts"
import type { DmarcRecord } from "../../src/inbound/DmarcReport.ts"
import { DmarcSummary, type SourceFacts, summariseDmarc } from "../../src/inbound/DmarcSummary.ts"
import { parsedDmarc, storable } from "../../src/inbound/Storable.ts"
import { parseTlsReport } from "../../src/inbound/TlsReport.ts"
import { summariseTls, TlsSummary } from "../../src/inbound/TlsSummary.ts"
import {
  dmarcGroups,
  dmarcReports,
  type DmarcReportRow,
  type SourceGroup,
  storeReport,
  tlsPolicies,
  type TlsPolicyRow
} from "../../src/store/InboundReports.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { runs } from "../support/runs.ts"

const unknown: SourceFacts = { ptr: null, provider: null, providerFrom: null, knownForwarder: false }
const group = (g: Partial<SourceGroup> & { source_ip: string; messages: number }): SourceGroup => ({
  disposition: "none",
  dkim: "pass",
  spf: "pass",
  overrides: "",
  arc: 0,
  dkim_auth: "",
  spf_auth: "",
  header_from: "example.org",
  envelope_from: "",
  reasons: "",
  ...g
})
const DAY = 86_400
const D1 = 1_764_028_800 // 2025-11-25T00:00:00Z
const report = (r: Partial<DmarcReportRow>): DmarcReportRow => ({
  reporter: "Receiver",
  begin_at: D1,
  end_at: D1 + DAY - 1,
  messages: 0,
  dmarc_pass: 0,
  policy: JSON.stringify({ p: "none", sp: null, pct: 100, errors: [] }),
  warnings: "[]",
  ...r
})
const summarise = (groups: ReadonlyArray<SourceGroup>, reports: ReadonlyArray<DmarcReportRow> = []) =>
  summariseDmarc({
    domain: "example.org",
    from: 0,
    to: 2 ** 33,
    groups,
    reporters: [],
    facts: () => unknown,
    reports
  })

describe("the DMARC analyst's fields", () => {
  it("see subdomain mail apart, by header-from domain", () => {
    const s = summarise([
      group({ source_ip: "192.0.2.1", messages: 90 }),
      group({
        source_ip: "192.0.2.1",
        messages: 7,
        header_from: "news.example.org",
        dkim: "fail",
        spf: "fail"
      }),
      group({ source_ip: "192.0.2.2", messages: 3, header_from: "news.example.org" })
    ])
    expect(s.byHeaderFrom).toEqual([
      { headerFrom: "example.org", messages: 90, dmarcPass: 90, dmarcFail: 0 },
      { headerFrom: "news.example.org", messages: 10, dmarcPass: 3, dmarcFail: 7 }
    ])
  })

  it("give each source its MAIL FROM domains and the identities that failed, not only those that passed", () => {
    const s = summarise([
      group({
        source_ip: "198.51.100.7",
        messages: 6,
        dkim: "fail",
        spf: "fail",
        envelope_from: "bounce.esp.example",
        dkim_auth: "esp.example/s1=pass example.org/sel2=fail",
        spf_auth: "bounce.esp.example=softfail"
      }),
      group({
        source_ip: "198.51.100.7",
        messages: 2,
        envelope_from: "example.org",
        dkim_auth: "example.org/sel2=pass",
        spf_auth: "example.org=pass"
      })
    ])
    const [source] = s.sources
    expect(source!.envelopeFrom).toEqual([
      { domain: "bounce.esp.example", messages: 6 },
      { domain: "example.org", messages: 2 }
    ])
    expect(source!.failingIdentities).toEqual([
      { method: "dkim", domain: "example.org", selector: "sel2", result: "fail", messages: 6 },
      { method: "spf", domain: "bounce.esp.example", selector: null, result: "softfail", messages: 6 }
    ])
    expect(source!.authenticatedAs).toEqual(["dkim:esp.example"])
  })

  it("count the policies receivers saw, apart when they disagree, and RFC 9990's np and testing", () => {
    const bis = JSON.stringify({
      p: "quarantine",
      sp: "none",
      pct: null,
      np: "reject",
      testing: "y",
      errors: []
    })
    const s = summarise(
      [],
      [
        report({ reporter: "A" }),
        report({ reporter: "B" }),
        report({ reporter: "C", policy: bis }),
        report({ reporter: "D", policy: "not json" })
      ]
    )
    expect(s.policyPublished).toEqual([
      {
        p: "none",
        sp: null,
        pct: 100,
        np: null,
        testing: null,
        adkim: null,
        aspf: null,
        reports: 2,
        reporters: ["A", "B"]
      },
      {
        p: "(not given)",
        sp: null,
        pct: null,
        np: null,
        testing: null,
        adkim: null,
        aspf: null,
        reports: 1,
        reporters: ["D"]
      },
      {
        p: "quarantine",
        sp: "none",
        pct: null,
        np: "reject",
        testing: "y",
        adkim: null,
        aspf: null,
        reports: 1,
        reporters: ["C"]
      }
    ])
  })

  it("count override reasons with their comments (older rows by their type), errors and repairs", () => {
    const s = summarise(
      [
        group({
          source_ip: "192.0.2.9",
          messages: 5,
          overrides: "forwarded",
          reasons: JSON.stringify([{ type: "forwarded", comment: "arc=pass" }])
        }),
        group({ source_ip: "192.0.2.8", messages: 2, overrides: "local_policy" })
      ],
      [
        report({ policy: JSON.stringify({ p: "none", errors: ["unknown tag 'x'", "unknown tag 'x'"] }) }),
        report({
          warnings: JSON.stringify(["a <reason> without a type was left out (record[3], record[9])"])
        }),
        report({
          warnings: JSON.stringify(["a <reason> without a type was left out (record[1] and 4 more)"])
        }),
        report({ warnings: null })
      ]
    )
    expect(s.reasons).toEqual([
      { type: "forwarded", comment: "arc=pass", messages: 5 },
      { type: "local_policy", comment: null, messages: 2 }
    ])
    expect(s.errors).toEqual([{ error: "unknown tag 'x'", reports: 1 }])
    expect(s.repairs).toEqual({
      reports: 2,
      notKept: 1,
      repairs: [{ repair: "a <reason> without a type was left out", reports: 2 }]
    })
  })

  it("share a report over the days its range covers, by its hours", () => {
    expect(daysOf(D1, D1 + DAY - 1)).toEqual([{ day: D1 / DAY, weight: DAY - 1 }])
    // a range that ends at the next midnight is still one day
    expect(daysOf(D1, D1 + DAY)).toEqual([{ day: D1 / DAY, weight: DAY }])
    const series = dailySeries([
      { begin_at: D1 + DAY / 2, end_at: D1 + DAY + DAY / 2, messages: 10, dmarc_pass: 5 },
      { begin_at: D1, end_at: D1 + DAY - 1, messages: 4, dmarc_pass: 4 }
    ])
    expect(series).toEqual([
      { date: "2025-11-25", messages: 10, dmarcPass: 7, dmarcFail: 3 },
      { date: "2025-11-26", messages: 4, dmarcPass: 2, dmarcFail: 2 }
    ])
    expect(repairOf("2 bytes after the gzip stream ignored (3 times)")).toBe(
      "2 bytes after the gzip stream ignored"
    )
  })

  it("share out exactly (property)", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 31 * 100_000 }),
        fc.array(fc.nat({ max: 86_400 * 31 }), { minLength: 1, maxLength: 40 }),
        (total, weights) => {
          const parts = shareOut(total, weights)
          expect(parts).toHaveLength(weights.length)
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
          for (const p of parts) expect(p).toBeGreaterThanOrEqual(0)
        }
      ),
      { numRuns: runs(200) }
    )
  })

  const reportRow = fc.record({
    reporter: fc.constantFrom("A", "B", "C"),
    begin_at: fc.oneof(fc.integer({ min: 0, max: 2 ** 36 }), fc.constant(D1)),
    end_at: fc.oneof(
      fc.integer({ min: 0, max: 2 ** 36 }),
      fc.constant(D1 + DAY - 1),
      fc.constant(D1 + 5 * DAY)
    ),
    messages: fc.nat({ max: 2 ** 31 * 1000 }),
    dmarc_pass: fc.option(fc.nat({ max: 2 ** 31 * 1000 })),
    policy: fc.oneof(
      fc.string(),
      fc
        .record({ p: fc.string(), pct: fc.anything(), np: fc.anything(), errors: fc.anything() })
        .map((x) => JSON.stringify(x))
    ),
    warnings: fc.option(
      fc.oneof(
        fc.string(),
        fc.array(fc.string()).map((x) => JSON.stringify(x))
      )
    )
  })
  const groupGen = fc.record({
    source_ip: fc.constantFrom("192.0.2.1", "192.0.2.2", "2001:db8::1"),
    disposition: fc.constantFrom("none", "reject", "quarantine", "pass", "x"),
    dkim: fc.constantFrom("pass", "fail"),
    spf: fc.constantFrom("pass", "fail"),
    overrides: fc.constantFrom("", "forwarded", "local_policy,mailing_list"),
    arc: fc.constantFrom(0, 1),
    dkim_auth: fc.oneof(fc.string(), fc.constantFrom("a.example/s=fail b.example/=pass", "/=", "x/y=")),
    spf_auth: fc.oneof(fc.string(), fc.constantFrom("=none", "a.example=softfail b=pass", "=")),
    messages: fc.nat({ max: 2 ** 31 }),
    header_from: fc.oneof(fc.constantFrom("example.org", "news.example.org", ""), fc.string()),
    envelope_from: fc.string(),
    reasons: fc.oneof(
      fc.string(),
      fc.constant('[{"type":"forwarded","comment":null}]'),
      fc.constant("[1,null]")
    )
  })

  it("add up and never throw over generated rows, extremes and unreadable texts included (property)", () => {
    fc.assert(
      fc.property(
        fc.array(groupGen, { maxLength: 60 }),
        fc.array(reportRow, { maxLength: 30 }),
        (groups, reports) => {
          const s = summarise(groups, reports)
          expect(() => Schema.validateSync(DmarcSummary)(s)).not.toThrow()
          const sum = (xs: ReadonlyArray<{ messages: number }>) => xs.reduce((n, x) => n + x.messages, 0)
          expect(sum(s.byHeaderFrom)).toBe(s.messages)
          expect(s.byHeaderFrom.reduce((n, x) => n + x.dmarcPass, 0)).toBe(s.dmarcPass)
          expect(sum(s.daily)).toBe(sum(reports))
          for (const d of s.daily) expect(d.dmarcPass + d.dmarcFail).toBe(d.messages)
          expect(s.daily.map((d) => d.date)).toEqual([...new Set(s.daily.map((d) => d.date))].sort())
          expect(s.policyPublished.reduce((n, p) => n + p.reports, 0)).toBe(reports.length)
          for (const src of s.sources)
            for (const f of src.failingIdentities) expect(f.result).not.toBe("pass")
        }
      ),
      { numRuns: runs(150) }
    )
  })
})

const tlsRow = (failed: number, failures: ReadonlyArray<object>): TlsPolicyRow => ({
  policy_type: "sts",
  policy_domain: "example.org",
  mx_hosts: "[]",
  successful: 10,
  failed,
  failures: JSON.stringify(failures),
  reporter: "Sender",
  report_id: "t-1"
})

describe("the TLS analyst's fields", () => {
  it("keep each failure as the sender described it, and flag details that exceed the failed sessions", () => {
    const s = summariseTls({
      domain: "example.org",
      from: 0,
      to: 1,
      reporters: [],
      policies: [
        tlsRow(3, [
          {
            type: "certificate-expired",
            mx: "mx.example.org",
            count: 5,
            reason: "X509_V_ERR_CERT_HAS_EXPIRED",
            sendingIp: "192.0.2.5",
            receivingIp: "198.51.100.25",
            helo: "mx1.example.org"
          }
        ]),
        // stored before the details were kept: the type and host only
        tlsRow(2, [{ type: "starttls-not-supported", mx: null, count: 2 }])
      ]
    })
    expect(s.failureDetails).toEqual([
      {
        resultType: "certificate-expired",
        reasonCode: "X509_V_ERR_CERT_HAS_EXPIRED",
        sendingMtaIp: "192.0.2.5",
        receivingMxHostname: "mx.example.org",
        receivingMxHelo: "mx1.example.org",
        receivingIp: "198.51.100.25",
        sessions: 5
      },
      {
        resultType: "starttls-not-supported",
        reasonCode: null,
        sendingMtaIp: null,
        receivingMxHostname: null,
        receivingMxHelo: null,
        receivingIp: null,
        sessions: 2
      }
    ])
    expect(s.failureDetailsExceedingTotal).toEqual([
      {
        reporter: "Sender",
        reportId: "t-1",
        policyType: "sts",
        policyDomain: "example.org",
        failedSessions: 3,
        detailSessions: 5
      }
    ])
  })

  it("never throw, and count every detail once (property)", () => {
    const failure = fc.record({
      type: fc.constantFrom("certificate-expired", "validation-failure"),
      mx: fc.option(fc.constantFrom("a.example", "b.example")),
      count: fc.nat({ max: 2 ** 31 }),
      reason: fc.option(fc.string()),
      helo: fc.option(fc.anything())
    })
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat({ max: 2 ** 31 }),
            fc.oneof(
              fc.array(failure, { maxLength: 5 }).map((f) => JSON.stringify(f)),
              fc.string()
            )
          ),
          { maxLength: 20 }
        ),
        (rows) => {
          const policies = rows.map(([failed, failures]) => ({ ...tlsRow(failed, []), failures }))
          const s = summariseTls({ domain: "example.org", from: 0, to: 1, reporters: [], policies })
          expect(() => Schema.validateSync(TlsSummary)(s)).not.toThrow()
          const details = s.failureDetails.reduce((n, f) => n + f.sessions, 0)
          expect(details).toBe(s.failuresByResultType.reduce((n, f) => n + f.sessions, 0))
        }
      ),
      { numRuns: runs(150) }
    )
  })
})

const record = (r: Partial<DmarcRecord>): DmarcRecord => ({
  sourceIp: "192.0.2.1",
  count: 1,
  disposition: "none",
  dkim: "pass",
  spf: "pass",
  reasons: [],
  headerFrom: "example.org",
  envelopeFrom: null,
  envelopeTo: null,
  authDkim: [],
  authSpf: [],
  ...r
})

describe("stored and read back", () => {
  it.effect("keeps MAIL FROM domains, reason comments, repairs, passing counts and TLS failure details", () =>
    Effect.gen(function* () {
      const dmarc = parsedDmarc(
        {
          version: null,
          orgName: "Receiver",
          email: null,
          extraContactInfo: null,
          reportId: "analyst-1",
          begin: D1,
          end: D1 + DAY - 1,
          errors: ["a problem"],
          generator: null,
          policy: {
            domain: "example.org",
            adkim: null,
            aspf: null,
            p: "reject",
            sp: null,
            np: "reject",
            pct: null,
            fo: null,
            testing: "y",
            discoveryMethod: null
          },
          records: [
            record({ count: 8, envelopeFrom: "Bounce@Mail.Example.org" }),
            record({
              sourceIp: "198.51.100.7",
              count: 3,
              dkim: "fail",
              spf: "fail",
              headerFrom: "news.example.org",
              reasons: [{ type: "local_policy", comment: "x".repeat(500) }],
              authDkim: [{ domain: "example.org", selector: "s1", result: "fail", humanResult: null }]
            })
          ]
        },
        "sha256:analyst-1"
      )
      const { head, rows } = storable({
        ...dmarc,
        warnings: ["org_name empty: used the report's e-mail domain (x)"]
      })
      const tls = parseTlsReport(
        JSON.stringify({
          "organization-name": "Sender",
          "report-id": "tls-analyst-1",
          "date-range": { "start-datetime": "2025-11-25T00:00:00Z", "end-datetime": "2025-11-25T23:59:59Z" },
          policies: [
            {
              policy: { "policy-type": "sts", "policy-domain": "example.org" },
              summary: { "total-successful-session-count": 9, "total-failure-session-count": 1 },
              "failure-details": [
                {
                  "result-type": "validation-failure",
                  "failure-reason-code": "hostname mismatch",
                  "sending-mta-ip": "192.0.2.5",
                  "receiving-mx-hostname": "mx.example.org",
                  "receiving-mx-helo": "mx1.example.org",
                  "receiving-ip": "198.51.100.25",
                  "failed-session-count": 4
                }
              ]
            }
          ]
        }),
        { maxRecords: 100 }
      )
      if (!("policies" in tls)) throw new Error(tls.message)
      const tlsStored = storable({ kind: "tls", report: tls, warnings: [], contentHash: "sha256:t" })
      const dir = mkdtempSync(join(tmpdir(), "analyst-"))
      const result = yield* Effect.gen(function* () {
        yield* storeReport(head, D1 + DAY, rows)
        yield* storeReport(tlsStored.head, D1 + DAY, tlsStored.rows)
        const groups = yield* dmarcGroups("example.org", D1, D1 + DAY)
        const reports = yield* dmarcReports("example.org", D1, D1 + DAY)
        const policies = yield* tlsPolicies("example.org", D1, D1 + DAY)
        return { groups, reports, policies }
      }).pipe(Effect.provide(sqliteAt(join(dir, "db.sqlite"))))
      const s = summarise(result.groups, result.reports)
      expect(s.sources.find((x) => x.ip === "192.0.2.1")!.envelopeFrom).toEqual([
        { domain: "mail.example.org", messages: 8 }
      ])
      expect(s.reasons).toEqual([{ type: "local_policy", comment: "x".repeat(200), messages: 3 }])
      expect(s.byHeaderFrom.map((h) => h.headerFrom)).toEqual(["example.org", "news.example.org"])
      expect(s.daily).toEqual([{ date: "2025-11-25", messages: 11, dmarcPass: 8, dmarcFail: 3 }])
      expect(s.errors).toEqual([{ error: "a problem", reports: 1 }])
      expect(s.policyPublished[0]).toMatchObject({ p: "reject", np: "reject", testing: "y", reports: 1 })
      expect(s.repairs.repairs).toEqual([
        { repair: "org_name empty: used the report's e-mail domain (x)", reports: 1 }
      ])
      expect(s.sources.find((x) => x.ip === "198.51.100.7")!.failingIdentities).toEqual([
        { method: "dkim", domain: "example.org", selector: "s1", result: "fail", messages: 3 }
      ])
      const t = summariseTls({
        domain: "example.org",
        from: D1,
        to: D1 + DAY,
        reporters: [],
        policies: result.policies
      })
      expect(t.failureDetails).toEqual([
        {
          resultType: "validation-failure",
          reasonCode: "hostname mismatch",
          sendingMtaIp: "192.0.2.5",
          receivingMxHostname: "mx.example.org",
          receivingMxHelo: "mx1.example.org",
          receivingIp: "198.51.100.25",
          sessions: 4
        }
      ])
      expect(t.failureDetailsExceedingTotal).toEqual([
        expect.objectContaining({
          reporter: "Sender",
          reportId: "tls-analyst-1",
          failedSessions: 1,
          detailSessions: 4
        })
      ])
    })
  )
})
