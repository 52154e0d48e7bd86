import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import {
  analyse,
  SenderRequirements,
  dkimVerdict,
  dmarcVerdict,
  type SenderInput,
  sendsNoMail,
  spfVerdict
} from "../../../src/checks/sender/SenderRequirements.ts"
import type { SmtpTlsResult } from "../../../src/checks/smtp-tls/SmtpTls.ts"
import type { SpfResult } from "../../../src/checks/spf/Spf.ts"
import { CheckStatuses } from "../../../src/kernel/Status.ts"
import { runFake } from "../facts.ts"

const ok = { status: "pass" as const, detail: "ok" }
const all: SenderInput = {
  domain: "example.com",
  spf: ok,
  dkim: ok,
  dmarc: { ...ok, policy: "none" },
  fcrdns: ok,
  tls: ok
}

describe("SenderRequirements", () => {
  it("everything in place is compliant; DNS-invisible rules are not-applicable", () => {
    const r = analyse(all)
    expect(r.overallStatus).toBe("compliant")
    expect(r.failedCount).toBe(0)
    expect(r.passedCount).toBe(6)
    const na = r.checks.filter((c) => c.status === "not-applicable").map((c) => c.id)
    expect(na).toEqual(["one-click-unsubscribe", "spam-rate"])
    for (const c of r.checks.filter((c) => c.status === "not-applicable"))
      expect(c.detail).toMatch(/cannot be judged/)
    expect(r.summary.google.status).toBe("compliant")
    expect(r.summary.microsoft.required).toBe(4)
  })

  it("flags who requires what", () => {
    const byId = Object.fromEntries(analyse(all).checks.map((c) => [c.id, c]))
    expect(byId["tls"]).toMatchObject({
      googleRequired: true,
      yahooRequired: false,
      microsoftRequired: false
    })
    expect(byId["fcrdns"]).toMatchObject({
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: false
    })
    for (const id of ["spf", "dkim", "dmarc", "dmarc-alignment"])
      expect(byId[id]).toMatchObject({ googleRequired: true, yahooRequired: true, microsoftRequired: true })
  })

  it("missing DMARC or a missing SPF record fails", () => {
    const r = analyse({ ...all, dmarc: { status: "missing", detail: "no _dmarc record", policy: null } })
    expect(r.overallStatus).toBe("non-compliant")
    expect(r.checks.find((c) => c.id === "dmarc")!.status).toBe("fail")
    const s = analyse({ ...all, spf: { status: "missing", detail: "no SPF" } })
    expect(s.checks.find((c) => c.id === "spf")!.status).toBe("fail")
    // DKIM still aligns
    expect(s.checks.find((c) => c.id === "dmarc-alignment")!.status).toBe("pass")
  })

  it("alignment is impossible without SPF and DKIM", () => {
    const r = analyse({
      ...all,
      spf: { status: "missing", detail: "" },
      dkim: { status: "missing", detail: "" }
    })
    expect(r.checks.find((c) => c.id === "dmarc-alignment")!.status).toBe("fail")
  })

  it("a DKIM key not found is no ground for alignment: SPF alone, or a warning without it", () => {
    const noKey = { status: "warning" as const, detail: "no DKIM key at 154 common selectors" }
    const viaSpf = analyse({ ...all, dkim: noKey }).checks.find((c) => c.id === "dmarc-alignment")!
    expect(viaSpf).toMatchObject({ status: "pass", detail: "the From domain can align through SPF" })
    const neither = analyse({ ...all, dkim: noKey, spf: { status: "missing", detail: "" } })
    expect(neither.checks.find((c) => c.id === "dmarc-alignment")!.status).toBe("warning")
  })

  it("unknown stays unknown; a TLS failure only affects Google", () => {
    const r = analyse({ ...all, fcrdns: { status: "unknown", detail: "PTR timeout" } })
    expect(r.overallStatus).toBe("unknown")
    const t = analyse({ ...all, tls: { status: "fail", detail: "no STARTTLS" } })
    expect(t.summary.google.status).toBe("non-compliant")
    expect(t.summary.yahoo.status).toBe("compliant")
    expect(t.summary.microsoft.status).toBe("compliant")
  })

  it("counts are consistent (property)", () => {
    const status = fc.constantFrom(...CheckStatuses)
    const verdict = status.map((s) => ({ status: s, detail: s }))
    fc.assert(
      fc.property(
        verdict,
        verdict,
        verdict,
        verdict,
        verdict,
        fc.constantFrom("none", "reject", null),
        (spf, dkim, dmarc, fcrdns, tls, policy) => {
          const r = analyse({
            domain: "x.test",
            spf,
            dkim,
            dmarc: { ...dmarc, policy: policy as "none" | null },
            fcrdns,
            tls
          })
          expect(r.passedCount + r.failedCount).toBeLessThanOrEqual(r.checks.length)
          expect(r.overallStatus === "compliant").toBe(
            r.failedCount === 0 && r.checks.every((c) => c.status === "pass" || c.status === "not-applicable")
          )
        }
      )
    )
  })
})

describe("verdicts from the email checks", () => {
  it("SPF: missing, invalid, unknown and valid records", () => {
    const base = { status: "pass", exists: true, valid: true, record: "v=spf1 -all", issues: [] } as const
    expect(spfVerdict({ ...base } as any).status).toBe("pass")
    expect(spfVerdict({ ...base, exists: false, status: "missing" } as any).status).toBe("missing")
    expect(spfVerdict({ ...base, valid: false, status: "fail", issues: ["two records"] } as any)).toEqual({
      status: "fail",
      detail: "two records"
    })
    expect(spfVerdict({ ...base, status: "unknown" } as any).status).toBe("unknown")
  })
  it("DKIM: found, not found (a warning, selectors cannot be listed), unknown", () => {
    const base = { discovery: "found", selectorsChecked: ["a", "b"], selectorsFound: [], issues: [] }
    expect(dkimVerdict({ ...base, selectorsFound: [{ selector: "s1", valid: true }] } as any).status).toBe(
      "pass"
    )
    expect(dkimVerdict({ ...base, selectorsFound: [{ selector: "s1", valid: false }] } as any).status).toBe(
      "fail"
    )
    expect(dkimVerdict({ ...base, discovery: "not-found" } as any).status).toBe("warning")
    expect(dkimVerdict({ ...base, discovery: "unknown" } as any).status).toBe("unknown")
  })
  it("DMARC: any valid policy passes, inherited ones included", () => {
    const base = {
      status: "pass",
      exists: true,
      valid: true,
      policy: "none",
      record: "v=DMARC1; p=none",
      issues: []
    }
    expect(dmarcVerdict(base as any)).toMatchObject({ status: "pass", policy: "none" })
    expect(
      dmarcVerdict({
        ...base,
        inherited: true,
        organisationalDomain: "example.com",
        effectivePolicy: "reject"
      } as any)
    ).toMatchObject({ status: "pass", policy: "reject" })
    expect(dmarcVerdict({ ...base, exists: false } as any).status).toBe("missing")
    expect(dmarcVerdict({ ...base, valid: false } as any).status).toBe("fail")
    expect(dmarcVerdict({ ...base, status: "unknown" } as any).status).toBe("unknown")
  })
})

describe("a domain that sends no mail", () => {
  const nullMx = { mxRecords: [{ priority: 0, host: "" }] } as unknown as SmtpTlsResult
  const spf = (record: string, policy: SpfResult["policy"], mechanisms: Array<string>) =>
    ({ exists: true, valid: true, record, policy, mechanisms }) as unknown as SpfResult

  it("is read from the structure of the SPF result and the MX set, not from display text", () => {
    expect(sendsNoMail({ tls: nullMx, spf: spf("v=spf1 -all", "fail", ["-all"]) })).toBe(true)
    // the same words elsewhere in the record do not count: a sender is authorised
    expect(
      sendsNoMail({ tls: nullMx, spf: spf("v=spf1 ip4:192.0.2.1 -all", "fail", ["ip4:192.0.2.1", "-all"]) })
    ).toBe(false)
    expect(sendsNoMail({ tls: nullMx, spf: spf("v=spf1 ~all", "softfail", ["~all"]) })).toBe(false)
    const realMx = { mxRecords: [{ priority: 10, host: "mx.example.com" }] } as unknown as SmtpTlsResult
    expect(sendsNoMail({ tls: realMx, spf: spf("v=spf1 -all", "fail", ["-all"]) })).toBe(false)
  })
})

describe("a domain whose implicit MX nothing answers on (RFC 5321 5.1)", () => {
  it.effect("has no mail server whose reverse DNS could matter: FCrDNS and TLS do not apply", () =>
    Effect.gen(function* () {
      const r = yield* runFake(SenderRequirements, "web.example", {
        zone: { "web.example A": ["192.0.2.1"], "web.example TXT": ["v=spf1 -all"] }
      })
      const rule = (id: string) => r.checks.find((c) => c.id === id)!
      expect(rule("fcrdns")).toMatchObject({
        status: "not-applicable",
        detail: expect.stringMatching(/implicit MX/)
      })
      expect(rule("tls").status).toBe("not-applicable")
    })
  )
})
