/**
 * The pure parts of monitors: the alert rules over the history's diff, the early warnings (each
 * threshold once), the schedule's arithmetic, the retry backoff, what a webhook may be, and that
 * the webhook body, signed as delivery signs it, verifies with the Standard Webhooks library.
 */
import fc from "fast-check"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { describe, expect, it } from "vitest"
import { backoffMs } from "../../src/monitor/AlertDelivery.ts"
import { emailMessage, webhookBody } from "../../src/monitor/AlertMessage.ts"
import { evaluate } from "../../src/monitor/AlertRules.ts"
import { alertId, nextDueAfter } from "../../src/monitor/MonitorRun.ts"
import { score } from "../../src/score/Score.ts"
import { earlyWarnings, thresholdFor } from "../../src/monitor/Warnings.ts"
import { secretProblem, webhookUrlProblem } from "../../src/monitor/WebhookTarget.ts"
import { parseCidr } from "../../src/records/IpAddress.ts"
import { arbScan, asDomain, perfectAlert, storedScan } from "./scans.ts"
import { runs } from "../support/runs.ts"

const DAY = 86_400_000
const perfect = storedScan("perfect.com")
const now = Date.parse(perfect.computedAt)
const later = new Date(now + 600_000).toISOString()
const weakened = asDomain(storedScan("dmarc-none.com"), "perfect.com", later)

describe("alert rules", () => {
  it("a first run has nothing to compare with: no change fires", () => {
    const e = evaluate(null, perfect, [], now)
    expect(e.changes).toEqual([])
    expect(e.rules.filter((r) => r !== "certificate-expiry" && r !== "dnssec-expiry")).toEqual([])
  })

  it("a scan against itself fires nothing, whatever the scan", () => {
    fc.assert(
      fc.property(arbScan, (scan) => {
        const warned = evaluate(null, scan, [], now).warned
        expect(evaluate(scan, scan, warned, now)).toMatchObject({ rules: [], changes: [], warnings: [] })
      }),
      { numRuns: runs(30) }
    )
  })

  it("a DMARC policy weakened from reject to none is a record change, named in the changes", () => {
    const e = evaluate(perfect, weakened, [], now)
    expect(e.rules).toContain("record-change")
    expect(e.changes).toContainEqual(
      expect.objectContaining({ kind: "record", id: "record/dmarc-policy", before: "reject", after: "none" })
    )
  })

  it("the way back (none to reject) is a record change too, but no grade drop", () => {
    const e = evaluate(weakened, perfect, [], now)
    expect(e.rules).toContain("record-change")
    expect(e.rules).not.toContain("grade-drop")
  })

  it("a grade drop fires grade-drop and a new high issue fires new-issue; the way back fires neither", () => {
    const listed = asDomain(storedScan("mx-listed.com"), "perfect.com", later)
    const worse = evaluate(perfect, listed, [], now)
    expect(worse.changes).toContainEqual(expect.objectContaining({ kind: "grade", before: "A+", after: "D" }))
    expect(worse.rules).toEqual(expect.arrayContaining(["grade-drop", "new-issue"]))
    const better = evaluate(listed, asDomain(perfect, "perfect.com", later), [], now)
    expect(better.rules).not.toContain("grade-drop")
    expect(better.rules).not.toContain("new-issue")
  })
})

describe("early warnings", () => {
  const withMx = (expiresAt: string) => {
    const scan = structuredClone(perfect) as any
    scan.checks["smtp-tls"].result.servers = scan.checks["smtp-tls"].result.servers.map((s: any) => ({
      ...s,
      expiresAt
    }))
    scan.checks.headers.result = { ...scan.checks.headers.result, certificateExpiresAt: undefined }
    scan.checks.dnssec.result.rrsig.records = []
    return scan
  }

  it("names the threshold just crossed", () => {
    expect(thresholdFor(31, [7, 14, 30])).toBeUndefined()
    expect(thresholdFor(30, [7, 14, 30])).toBe(30)
    expect(thresholdFor(20, [7, 14, 30])).toBe(30)
    expect(thresholdFor(14, [7, 14, 30])).toBe(14)
    expect(thresholdFor(5, [7, 14, 30])).toBe(7)
    expect(thresholdFor(-1, [7, 14, 30])).toBeUndefined()
  })

  it("warns once per threshold as a certificate's expiry comes closer, and afresh once it is renewed", () => {
    const expiry = new Date(now + 40 * DAY).toISOString()
    let warned: ReadonlyArray<string> = []
    const sent: Array<number> = []
    for (let day = 0; day <= 40; day++) {
      const e = evaluate(null, withMx(expiry), warned, now + day * DAY)
      if (e.warnings.length > 0) sent.push(40 - day)
      warned = e.warned
    }
    expect(sent).toEqual([30, 14, 7])
    const renewed = new Date(now + 100 * DAY).toISOString()
    expect(evaluate(null, withMx(renewed), warned, now + 75 * DAY).warnings).toHaveLength(1)
  })

  it("a certificate first seen 5 days before expiry is warned at 7 only", () => {
    const scan = withMx(new Date(now + 5.5 * DAY).toISOString())
    const warnings = earlyWarnings(scan, now)
    expect(new Set(warnings.map((w) => w.key.split(":").at(-1)))).toEqual(new Set(["7"]))
    expect(warnings[0]).toMatchObject({ rule: "certificate-expiry", daysLeft: 5 })
  })

  it("a DNSSEC signature within 7 days of expiry is warned; one further away is not", () => {
    const scan = structuredClone(perfect) as any
    const record = scan.checks.dnssec.result.rrsig.records[0]
    scan.checks.dnssec.result.rrsig.records = [
      { ...record, expiration: new Date(now + 3 * DAY).toISOString(), isExpired: false },
      { ...record, keyTag: 1, expiration: new Date(now + 20 * DAY).toISOString(), isExpired: false }
    ]
    const warnings = earlyWarnings(scan, now).filter((w) => w.rule === "dnssec-expiry")
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.summary).toMatch(/expires in 3 days/)
  })
})

describe("registration warnings", () => {
  it("the domain's and a dependency's registration are warned at 30, 14 and 7 days, each once", () => {
    const entry = (domain: string, days: number, uses: Array<{ reason: string; name: string }>) => ({
      domain,
      uses,
      rdap: "registered",
      rdapUrl: null,
      expires: new Date(now + days * DAY + 3_600_000).toISOString(),
      daysLeft: days,
      band: null,
      statuses: [],
      status: "pass",
      message: ""
    })
    const scan = structuredClone(perfect) as any
    scan.checks.registration = {
      ...scan.checks.registration,
      status: "done",
      reason: null,
      result: {
        domain: "perfect.com",
        timestamp: perfect.computedAt,
        rdapConfigured: true,
        status: "warning",
        registration: entry("perfect.com", 200, []),
        dependencies: [
          entry("soon-expiring.net", 10, [{ reason: "SPF include", name: "_spf.soon-expiring.net" }])
        ],
        issues: []
      }
    }
    const warnings = earlyWarnings(scan, now).filter((w) => w.rule === "registration-expiry")
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.key).toMatch(/^registration:soon-expiring\.net:.*:14$/)
    expect(warnings[0]!.summary).toMatch(/soon-expiring\.net, which perfect\.com depends on \(SPF include/)
    expect(
      evaluate(null, scan, [warnings[0]!.key], now).warnings.filter((w) => w.rule === "registration-expiry")
    ).toEqual([])
  })
})

describe("schedule and retries", () => {
  it("the next due time is the first of the series after now, never a burst of missed ones", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1000, max: 1e8 }),
        fc.integer({ min: 0, max: 1e9 }),
        (due, every, late) => {
          const next = nextDueAfter(due, every, due + late)
          expect((next - due) % every).toBe(0)
          expect(next).toBeGreaterThan(due)
          expect(next).toBeGreaterThan(due + late - 1)
          expect(next - every <= Math.max(due, due + late)).toBe(true)
        }
      )
    )
  })

  it("backs off exponentially up to the cap", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, 30_000, 3_600_000))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000
    ])
    expect(backoffMs(40, 30_000, 3_600_000)).toBe(3_600_000)
  })

  it("an alert's id is stable per monitor, due time and channel", () => {
    expect(alertId("mon_a", 1, 0)).toBe(alertId("mon_a", 1, 0))
    expect(new Set([alertId("mon_a", 1, 0), alertId("mon_a", 1, 1), alertId("mon_a", 2, 0)]).size).toBe(3)
  })
})

describe("webhook targets and signatures", () => {
  const allow = [parseCidr("127.0.0.0/8")!]
  const lookup = (host: string) =>
    Effect.succeed(host === "hooks.internal" ? { v4: ["127.0.0.9"], v6: [] } : { v4: ["192.0.2.7"], v6: [] })
  const problem = (url: string) => Effect.runSync(webhookUrlProblem(url, allow, lookup))

  it("accepts https, and http only inside ALLOW_TARGETS", () => {
    expect(problem("https://hooks.example.com/x")).toBeNull()
    expect(problem("http://127.0.0.1:8080/x")).toBeNull()
    expect(problem("http://hooks.internal/x")).toBeNull()
    expect(problem("http://hooks.example.com/x")).toMatch(/https/)
    expect(problem("ftp://hooks.example.com/x")).toMatch(/https/)
    expect(problem("https://user:pw@hooks.example.com/x")).toMatch(/credentials/)
    expect(problem("not a url")).toMatch(/not a URL/)
  })

  it("accepts Standard Webhooks secrets of 24 to 64 bytes", () => {
    expect(secretProblem(`whsec_${Buffer.alloc(32, 7).toString("base64")}`)).toBeNull()
    expect(secretProblem(Buffer.alloc(24, 7).toString("base64"))).toBeNull()
    expect(secretProblem(`whsec_${Buffer.alloc(16, 7).toString("base64")}`)).toMatch(/24 to 64/)
    expect(secretProblem("correct horse battery staple")).toMatch(/base64/)
  })

  it("the stored body, signed as delivery signs it, verifies and carries the changes and links", () => {
    const e = evaluate(perfect, weakened, [], now)
    const content = perfectAlert(later, {
      grade: { before: "A+", after: "B" },
      rules: e.rules,
      changes: e.changes,
      warnings: e.warnings,
      fixes: score(weakened).recommendations
    })
    const body = webhookBody(content)
    const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`
    const sentAt = new Date()
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", sentAt, body)
    }
    const payload = new Webhook(secret).verify(body, headers) as any
    expect(payload).toMatchObject({ type: "monitor.alert", data: { domain: "perfect.com", rules: e.rules } })
    expect(payload.data.links.diff).toBe("https://audit.example/api/history/perfect.com/diff")
    expect(payload.data.changes).toHaveLength(e.changes.length)
    const mail = emailMessage(content)
    expect(mail.subject).toContain("perfect.com")
    expect(mail.text).toContain("DMARC policy went from reject to none")
    // the score's list of what to fix, in its order and count
    const fixes = score(weakened).recommendations
    expect(fixes.length).toBeGreaterThan(0)
    expect(payload.data.fixes.map((f: { id: string }) => f.id)).toEqual(fixes.map((f) => f.id))
    expect(mail.text).toContain(`What to fix (${fixes.length})`)
  })
})
