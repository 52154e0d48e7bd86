/**
 * The verdict on a mailed report's sender (MailAuthenticity.ts `verdictOf`, over mailauth's answer)
 * and the counts the DMARC summary shows (`reportAuthenticity`): authenticated only on a DMARC pass
 * for the From domain, otherwise not, saying why; the verdict resting on authenticated reports when
 * the period has both kinds.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { reportAuthenticity } from "../../src/inbound/Authenticity.ts"
import { verdictOf } from "../../src/inbound/MailAuthenticity.ts"
import { runs } from "../support/runs.ts"

const envelope = { ip: "192.0.2.25", helo: "mta.reporter.example", mailFrom: "dmarc@reporter.example" }

describe("a mailed report's sender", () => {
  it("is authenticated for its From domain on a DMARC pass, naming the aligned identity", () => {
    const v = verdictOf(
      {
        dkim: {
          results: [{ signingDomain: "reporter.example", selector: "s1", status: { result: "pass" } }]
        },
        spf: { domain: "reporter.example", status: { result: "softfail" } },
        dmarc: {
          domain: "Reporter.example",
          status: { result: "pass" },
          alignment: { dkim: { result: "reporter.example" }, spf: { result: false } }
        }
      },
      envelope
    )
    expect(v).toEqual({
      authenticated: true,
      authenticatedFor: "reporter.example",
      authentication: "DMARC pass for reporter.example (aligned: DKIM d=reporter.example)"
    })
  })

  it("is not, without a signature and with SPF softfail, saying so", () => {
    const v = verdictOf(
      {
        dkim: { results: [{ status: { result: "none" } }], headerFrom: ["noreply-dmarc-support@google.com"] },
        spf: { domain: "google.com", status: { result: "softfail" } },
        dmarc: { domain: "google.com", status: { result: "fail" } }
      },
      { ...envelope, mailFrom: "x@google.com" }
    )
    expect(v.authenticated).toBe(false)
    expect(v.authenticatedFor).toBeNull()
    expect(v.authentication).toBe(
      "DMARC fail for google.com: no DKIM signature and SPF softfail for google.com from 192.0.2.25"
    )
  })

  it("is not when the DMARC record cannot be looked up (unknown, not forged), or there is none", () => {
    const temp = verdictOf({ dmarc: { domain: "r.example", status: { result: "temperror" } } }, envelope)
    expect(temp.authentication).toMatch(/^the DMARC record of r\.example could not be looked up/)
    const none = verdictOf({ dmarc: { domain: "r.example", status: { result: "none" } } }, envelope)
    expect(none).toMatchObject({ authenticated: false })
    expect(none.authentication).toMatch(/^r\.example publishes no DMARC record/)
  })

  it("a passing but unaligned DKIM signature is named as such", () => {
    const v = verdictOf(
      {
        dkim: { results: [{ signingDomain: "esp.example", selector: "k1", status: { result: "pass" } }] },
        dmarc: { domain: "r.example", status: { result: "fail" } }
      },
      envelope
    )
    expect(v.authentication).toContain("DKIM pass for d=esp.example s=k1, not aligned with the From domain")
  })

  it("is authenticated only on a DMARC pass, whatever else mailauth says", () =>
    fc.assert(
      fc.property(
        fc.constantFrom("pass", "fail", "none", "temperror", "permerror"),
        fc.constantFrom("pass", "fail", "softfail", "neutral", "none"),
        (dmarc, spf) => {
          const v = verdictOf(
            { spf: { status: { result: spf } }, dmarc: { domain: "r.example", status: { result: dmarc } } },
            envelope
          )
          expect(v.authenticated).toBe(dmarc === "pass")
          expect(v.authentication.length).toBeGreaterThan(0)
        }
      ),
      { numRuns: runs(50) }
    ))
})

describe("the summary's counts", () => {
  it("count reporters and reports apart; the verdict rests on authenticated ones when any exist", () => {
    const both = reportAuthenticity([
      { authenticated: 1, reporter: "google.com", reports: 3 },
      { authenticated: 0, reporter: "google.com", reports: 1 },
      { authenticated: 0, reporter: "forger.example", reports: 2 }
    ])
    expect(both).toMatchObject({
      authenticatedReports: 3,
      unauthenticatedReports: 3,
      authenticatedReporters: ["google.com"],
      unauthenticatedReporters: ["forger.example"],
      verdictFrom: "authenticated reports"
    })
    expect(both.note).toMatch(/rests on the 3 authenticated report\(s\) only; 3 unauthenticated/)
    expect(reportAuthenticity([{ authenticated: 0, reporter: "x", reports: 1 }]).verdictFrom).toBe(
      "all reports"
    )
    expect(reportAuthenticity([]).note).toBe("No report covers this period.")
  })
})
