/**
 * Failure reports (RFC 6591 ARF and the plain-text variant) read from parsedmarc's real samples
 * (../shared/corpora/parsedmarc-samples, read in place; skipped with a message when absent), what
 * is kept of them (no recipients, no local parts, no Subject or body unless asked), and the
 * summary over stored rows.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { looksLikeFailureReport, readFailureMessage } from "../../src/inbound/FailureDecode.ts"
import {
  addressDomain,
  hideLocalParts,
  readFailureReport,
  receivedHop
} from "../../src/inbound/FailureReport.ts"
import { summariseFailures } from "../../src/inbound/FailureSummary.ts"
import type { FailureRow } from "../../src/store/FailureReports.ts"
import { runs } from "../support/runs.ts"

const SAMPLES = "../shared/corpora/parsedmarc-samples/samples/failure"
const present = existsSync(SAMPLES)
if (!present) console.warn(`skipping the failure sample tests: ${SAMPLES} is absent (see its README)`)
const sample = (name: string) => new Uint8Array(readFileSync(join(SAMPLES, name)))

const read = (bytes: Uint8Array, keep = false) =>
  Effect.map(readFailureMessage(bytes), (m) => readFailureReport(m.parts, keep))

const DOMAIN_DE = "DMARC Failure Report for domain.de (mail-from=sharepoint@domain.de, ip=10.10.10.10).eml"

describe.skipIf(!present)("the sample set's failure reports", () => {
  it("every one is recognised as a failure report and read", () =>
    Effect.gen(function* () {
      const names = readdirSync(SAMPLES).filter((f) => f.endsWith(".eml"))
      expect(names.length).toBe(5)
      for (const name of names) {
        expect(looksLikeFailureReport(sample(name)), name).toBe(true)
        const report = yield* read(sample(name))
        expect(Either.isRight(report), name).toBe(true)
      }
    }).pipe(Effect.runPromise))

  it("an ARF report (RFC 6591): domain, source, arrival, failure type, routing without recipients", () =>
    Effect.gen(function* () {
      const r = Either.getOrThrow(yield* read(sample(DOMAIN_DE)))
      expect(r.format).toBe("arf")
      expect(r.domain).toBe("domain.de")
      expect(r.sourceIp).toBe("10.10.10.10")
      expect(r.arrival).toBe(Date.parse("2018-10-01T09:20:27Z") / 1000)
      expect(r.failures).toEqual(["dmarc"])
      expect(r.deliveryResult).toBe("smg-policy-action")
      expect(r.fromDomain).toBe("domain.de")
      expect(r.mailFromDomain).toBe("domain.de")
      expect(r.routing).toEqual([
        { from: "servernameone.domain.local", ip: "10.10.10.10", by: "mailrelay.de" }
      ])
      expect(r.subject).toBeNull()
      expect(r.original).toBeNull()
      expect(JSON.stringify(r)).not.toContain("peter.pan")
      expect(JSON.stringify(r)).not.toContain("sharepoint@")
    }).pipe(Effect.runPromise))

  it("the original's Subject and body only when bodies are kept", () =>
    Effect.gen(function* () {
      const r = Either.getOrThrow(yield* read(sample(DOMAIN_DE), true))
      expect(r.subject).toBe("Subject")
      expect(r.original).toContain("SharePoint")
    }).pipe(Effect.runPromise))

  it("a base64 feedback part in multipart/mixed (Netease): DKIM-Domain, alignment, inferred nothing", () =>
    Effect.gen(function* () {
      const r = Either.getOrThrow(yield* read(sample("[Netease DMARC Failure Report] Rent Reminder.eml")))
      expect(r.domain).toBe("cardinal.com")
      expect(r.sourceIp).toBe("167.89.69.24")
      expect(r.dkimDomain).toBe("entrata.com")
      expect(r.identityAlignment).toBe("spf,dkim")
      expect(r.mailFromDomain).toBe("email.entrata.com")
      expect(r.fromDomain).toBe("cardinal.com")
      expect(r.failures).toEqual(["dmarc"])
      expect(r.authenticationResults[0]).toContain("smtp.mailfrom=*@email.entrata.com")
      expect(r.routing.map((h) => h.ip)).toContain("198.190.14.10")
    }).pipe(Effect.runPromise))

  it("LinkedIn's report, with LF and with CRLF line ends, reads the same", () =>
    Effect.gen(function* () {
      const lf = Either.getOrThrow(yield* read(sample("dmarc_ruf_report_linkedin.eml")))
      const crlf = Either.getOrThrow(yield* read(sample("dmarc_ruf_report_linkedin.crlf.eml")))
      expect(lf).toEqual(crlf)
      expect(lf.domain).toBe("example.com")
      expect(lf.authHeaders.some((h) => h.startsWith("authentication-results:"))).toBe(true)
      expect(lf.routing.length).toBeGreaterThan(2)
    }).pipe(Effect.runPromise))

  it("the plain-text variant without an ARF part (Exim): its fields and the quoted headers", () =>
    Effect.gen(function* () {
      const r = Either.getOrThrow(yield* read(sample("exim_plain_text_only_no_arf_part.eml")))
      expect(r.format).toBe("plain-text")
      expect(r.domain).toBe("example.com")
      expect(r.sourceIp).toBe("203.0.113.68")
      expect(r.failures).toEqual(["dkim", "dmarc", "spf"])
      expect(r.arrival).toBe(Date.parse("2025-04-07T21:16:09Z") / 1000)
      expect(r.routing[0]).toEqual({ from: null, ip: "203.0.113.68", by: "node04.mailgate.example.net" })
      expect(r.authHeaders.join("\n")).toContain("spf=softfail smtp.mailfrom=*@example.com")
    }).pipe(Effect.runPromise))
})

describe("what is refused", () => {
  const parts = (feedback: string | undefined, text?: string) => ({ feedback, original: undefined, text })
  it("an ARF report of another feedback type (abuse), naming it", () => {
    const r = readFailureReport(parts("Feedback-Type: abuse\nVersion: 1\n"), false)
    expect(r).toEqual(
      Either.left({ kind: "unsupported", message: expect.stringContaining("'abuse', not auth-failure") })
    )
  })
  it("a report naming no domain", () => {
    const r = readFailureReport(parts("Feedback-Type: auth-failure\nSource-IP: 192.0.2.1\n"), false)
    expect(r).toEqual(Either.left({ kind: "schema", message: expect.stringContaining("names no domain") }))
  })
  it("a message that is no report at all", () => {
    expect(Either.isLeft(readFailureReport(parts(undefined, undefined), false))).toBe(true)
  })
})

describe("reducing personal data", () => {
  it("hides every local part and keeps the domain", () =>
    fc.assert(
      fc.property(fc.emailAddress(), fc.string(), (address, around) => {
        const hidden = hideLocalParts(`${around} smtp.mailfrom=${address}; ${around}`)
        const domain = address.slice(address.lastIndexOf("@") + 1)
        expect(hidden).toContain(`*@${domain}`)
      }),
      { numRuns: runs(200) }
    ))

  it("an address's domain, lower case, never its local part", () => {
    expect(addressDomain('"Name" <User@Example.COM>')).toBe("example.com")
    expect(addressDomain("nobody")).toBeNull()
  })

  it("a Received field keeps hosts and the address, never the recipient", () => {
    const hop = receivedHop(
      "from mx.example.net (mx.example.net [192.0.2.7]) by in.example.org with ESMTPS id 1 for <a@example.org>; Mon, 1 Jan 2024"
    )
    expect(hop).toEqual({ from: "mx.example.net", ip: "192.0.2.7", by: "in.example.org" })
  })

  it("reading any text never throws, and a report read names its domain", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400 }), (a, b) => {
        const r = readFailureReport(
          { feedback: `Feedback-Type: auth-failure\n${a}`, original: b, text: a },
          false
        )
        if (Either.isRight(r)) expect(r.right.domain.length).toBeGreaterThan(0)
      }),
      { numRuns: runs(300) }
    ))
})

const row = (over: Partial<FailureRow>): FailureRow => ({
  reporter: "google.com",
  arrival_at: 1_700_000_000,
  source_ip: "192.0.2.1",
  failures: "dmarc",
  dkim_domain: null,
  dkim_selector: null,
  mail_from_domain: null,
  authenticated: 1,
  ...over
})

describe("the summary", () => {
  it("by source, failure type and identity, with first and last seen", () => {
    const s = summariseFailures({
      domain: "example.com",
      from: 1_699_000_000,
      to: 1_701_000_000,
      rows: [
        row({ failures: "dkim,dmarc", dkim_domain: "example.com", dkim_selector: "s1" }),
        row({ arrival_at: 1_700_000_100, mail_from_domain: "bounce.example.com", authenticated: 0 }),
        row({ source_ip: null, reporter: "yahoo.com" })
      ]
    })
    expect(s.reports).toBe(3)
    expect([s.authenticated, s.unauthenticated]).toEqual([2, 1])
    expect(s.bySource[0]).toEqual({
      sourceIp: "192.0.2.1",
      reports: 2,
      firstSeen: "2023-11-14T22:13:20.000Z",
      lastSeen: "2023-11-14T22:15:00.000Z",
      failures: ["dkim", "dmarc"]
    })
    expect(s.bySource[1]!.sourceIp).toBeNull()
    expect(s.byFailureType.map((t) => [t.type, t.reports])).toEqual([
      ["dmarc", 3],
      ["dkim", 1]
    ])
    expect(s.byIdentity.map((i) => [i.mechanism, i.domain, i.selector])).toEqual([
      ["dkim", "example.com", "s1"],
      ["spf", "bounce.example.com", null]
    ])
    expect(s.reporters).toEqual([
      { name: "google.com", reports: 2, authenticated: 1 },
      { name: "yahoo.com", reports: 1, authenticated: 1 }
    ])
  })

  it("counts add up for any rows", () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            source_ip: fc.option(fc.constantFrom("192.0.2.1", "192.0.2.2", "2001:db8::1")),
            failures: fc.subarray(["dkim", "dmarc", "spf"], { minLength: 1 }).map((f) => f.join(",")),
            arrival_at: fc.integer({ min: 0, max: 2_000_000_000 }),
            authenticated: fc.constantFrom(0, 1)
          }),
          { maxLength: 50 }
        ),
        (rows) => {
          const s = summariseFailures({ domain: "example.com", from: 0, to: 2, rows: rows.map(row) })
          expect(s.reports).toBe(rows.length)
          expect(s.authenticated + s.unauthenticated).toBe(rows.length)
          expect(s.bySource.reduce((n, x) => n + x.reports, 0)).toBe(rows.length)
          for (const t of s.byFailureType) expect(t.firstSeen <= t.lastSeen).toBe(true)
        }
      ),
      { numRuns: runs(100) }
    ))
})
