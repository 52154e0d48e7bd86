/**
 * The pure summaries: totals add up, and readyForReject lists exactly the legitimate-looking
 * sources whose mail fails DMARC and is not forwarded (RFC 7489 6.6.2; ARC, RFC 8617).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { type SourceFacts, summariseDmarc } from "../../src/inbound/DmarcSummary.ts"
import { spfProviderOf, spfProviders } from "../../src/inbound/Providers.ts"
import type { SourceGroup } from "../../src/store/InboundReports.ts"
import { summariseTls } from "../../src/inbound/TlsSummary.ts"

const unknown: SourceFacts = { ptr: null, provider: null, providerFrom: null, knownForwarder: false }
const group = (g: Partial<SourceGroup> & { source_ip: string; messages: number }): SourceGroup => ({
  disposition: "none",
  dkim: "pass",
  spf: "pass",
  overrides: "",
  arc: 0,
  dkim_auth: "",
  spf_auth: "",
  ...g
})
const summarise = (groups: ReadonlyArray<SourceGroup>, facts: (ip: string) => SourceFacts = () => unknown) =>
  summariseDmarc({ domain: "example.org", from: 0, to: 86_400, groups, reporters: [], facts })

describe("readyForReject", () => {
  it("is never ready when the look-ups that classify failing sources failed", () => {
    const failing = group({ source_ip: "203.0.113.1", messages: 9, dkim: "fail", spf: "fail" })
    const passing = group({ source_ip: "192.0.2.1", messages: 1000 })
    const r = summarise([passing, failing], (ip) => ({
      ...unknown,
      lookupFailed: ip === "203.0.113.1" ? "its PTR look-up failed" : undefined
    })).readyForReject
    expect(r.verdict).toBe("no-data")
    expect(r.unclassified).toEqual([{ ip: "203.0.113.1", messages: 9, reason: "its PTR look-up failed" }])
    expect(r.note).toMatch(/could not be classified/)
    // a failed look-up for a source whose mail passes changes nothing
    const ok = summarise([passing], () => ({ ...unknown, lookupFailed: "its PTR look-up failed" }))
    expect(ok.readyForReject.verdict).toBe("ready")
  })

  it("spoofing (unknown, unauthenticated) is no blocker; an unaligned ESP is", () => {
    const spoof = group({ source_ip: "203.0.113.1", messages: 9, dkim: "fail", spf: "fail" })
    expect(summarise([spoof]).readyForReject.verdict).toBe("ready")
    const esp = group({
      source_ip: "192.0.2.7",
      messages: 4,
      dkim: "fail",
      spf: "fail",
      spf_auth: "bounce.esp.net=pass"
    })
    const r = summarise([spoof, esp]).readyForReject
    expect(r.verdict).toBe("not-ready")
    expect(r.blockers).toEqual([
      expect.objectContaining({
        ip: "192.0.2.7",
        messages: 4,
        reason: expect.stringMatching(/spf:bounce\.esp\.net/)
      })
    ])
  })

  it("a source in the domain's SPF that fails is a blocker; forwarded (ARC) mail and known forwarders are not", () => {
    const own = (ip: string): SourceFacts =>
      ip === "192.0.2.1"
        ? { ptr: "mail.example.org", provider: "Google", providerFrom: "spf-include", knownForwarder: false }
        : ip === "192.0.2.3"
          ? { ptr: "mail-forward.pobox.com", provider: "Pobox", providerFrom: "ptr", knownForwarder: true }
          : unknown
    const groups = [
      group({ source_ip: "192.0.2.1", messages: 2, dkim: "fail", spf: "fail" }),
      group({
        source_ip: "192.0.2.2",
        messages: 5,
        dkim: "fail",
        spf: "fail",
        dkim_auth: "example.org/s1=fail",
        overrides: "local_policy",
        arc: 1
      }),
      group({ source_ip: "192.0.2.3", messages: 6, dkim: "fail", spf: "fail", spf_auth: "pobox.com=pass" })
    ]
    const s = summarise(groups, own)
    expect(s.readyForReject.blockers.map((b) => b.ip)).toEqual(["192.0.2.1"])
    expect(s.sources.find((x) => x.ip === "192.0.2.2")?.forwarder).toBe(true)
    expect(s.sources.find((x) => x.ip === "192.0.2.3")?.forwarder).toBe(true)
  })

  it("totals add up, and every blocker has failing, non-forwarded mail (property)", () => {
    const g = fc.record({
      source_ip: fc.ipV4(),
      messages: fc.nat({ max: 1000 }),
      disposition: fc.constantFrom("none", "quarantine", "reject"),
      dkim: fc.constantFrom("pass", "fail"),
      spf: fc.constantFrom("pass", "fail"),
      overrides: fc.constantFrom("", "forwarded", "local_policy", "sampled_out"),
      arc: fc.constantFrom(0, 1),
      dkim_auth: fc.constantFrom("", "esp.net/k1=pass", "example.org/s1=fail"),
      spf_auth: fc.constantFrom("", "esp.net=pass", "example.org=softfail")
    })
    fc.assert(
      fc.property(fc.array(g, { maxLength: 40 }), (groups) => {
        const s = summarise(groups)
        const total = groups.reduce((n, x) => n + x.messages, 0)
        expect(s.messages).toBe(total)
        expect(s.dmarcPass).toBe(
          groups.filter((x) => x.dkim === "pass" || x.spf === "pass").reduce((n, x) => n + x.messages, 0)
        )
        expect(s.sourcesTotal).toBe(new Set(groups.map((x) => x.source_ip)).size)
        for (const b of s.readyForReject.blockers) {
          expect(b.messages).toBeGreaterThan(0)
          const failing = groups.filter((x) => x.source_ip === b.ip && x.dkim === "fail" && x.spf === "fail")
          expect(failing.reduce((n, x) => n + x.messages, 0)).toBeGreaterThanOrEqual(b.messages)
        }
        expect(s.readyForReject.verdict).toBe(
          total === 0 || (s.readyForReject.blockers.length === 0 && s.readyForReject.unclassified.length > 0)
            ? "no-data"
            : s.readyForReject.blockers.length > 0
              ? "not-ready"
              : "ready"
        )
      })
    )
  })
})

describe("providers", () => {
  it("an address covered by an include's ip4 networks belongs to that include", () => {
    const node = (
      type: "root" | "include",
      domain: string,
      record: string,
      children: ReadonlyArray<any> = []
    ) =>
      ({
        type,
        term: null,
        domain,
        record,
        status: "ok",
        lookups: 0,
        totalLookups: 0,
        voidLookups: 0,
        totalVoidLookups: 0,
        errors: [],
        children
      }) as any
    const root = node("root", "example.org", "v=spf1 include:_spf.google.com include:esp.net -all", [
      node("include", "_spf.google.com", "v=spf1 ip4:209.85.128.0/17 ~all"),
      node("include", "esp.net", "v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 -all")
    ])
    const providers = spfProviders(root)
    expect(spfProviderOf(providers, "209.85.200.1")).toBe("Google")
    expect(spfProviderOf(providers, "2001:db8::5")).toBe("esp.net")
    expect(spfProviderOf(providers, "198.51.100.1")).toBeUndefined()
  })
})

describe("TLS summary", () => {
  it("sums sessions and failures by type, MX and policy", () => {
    const s = summariseTls({
      domain: "example.org",
      from: 0,
      to: 1,
      reporters: [{ reporter: "A", reports: 2, messages: 15 }],
      policies: [
        {
          policy_type: "sts",
          policy_domain: "example.org",
          mx_hosts: '["mx.example.org"]',
          successful: 10,
          failed: 2,
          failures: '[{"type":"certificate-expired","mx":"mx.example.org","count":2}]'
        },
        {
          policy_type: "sts",
          policy_domain: "example.org",
          mx_hosts: '["mx2.example.org"]',
          successful: 2,
          failed: 1,
          failures: '[{"type":"starttls-not-supported","mx":null,"count":1}]'
        }
      ]
    })
    expect(s).toMatchObject({
      reports: 2,
      sessions: { successful: 12, failed: 3 },
      successRate: 0.8,
      failuresByResultType: [
        { resultType: "certificate-expired", sessions: 2 },
        { resultType: "starttls-not-supported", sessions: 1 }
      ],
      failuresByMx: [
        { mx: "mx.example.org", sessions: 2 },
        { mx: "(not given)", sessions: 1 }
      ],
      byPolicy: [
        { policyType: "sts", mxHosts: ["mx.example.org", "mx2.example.org"], successful: 12, failed: 3 }
      ]
    })
  })
})
