/**
 * The dependency map's pure parts: which domains a domain's records name (dependenciesOf), the
 * CNAME probes, the registration and takeover verdicts, and the map's contributors.
 */
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyse as analyseRegistration } from "../../../src/checks/registration/Registration.ts"
import { cnameProbeOf, dependenciesOf, hostOf } from "../../../src/checks/registration/Dependencies.ts"
import { analyse as analyseTakeover } from "../../../src/checks/takeover/Takeover.ts"
import { signatureFor, matchesSignature } from "../../../src/checks/takeover/Signatures.ts"
import type { RdapAnswer } from "../../../src/net/Rdap.ts"
import type { DnsAnswer } from "../../../src/net/DnsTypes.ts"
import { dependencyMap } from "../../../src/report/DependencyMap.ts"
import { domain as toDomain } from "../../support/domain.ts"

const NOW = new Date("2026-11-26T00:00:00Z")
const node = (type: "root" | "include" | "redirect", domain: string, children: Array<any> = []) =>
  ({
    type,
    term: null,
    domain,
    record: null,
    status: "ok",
    lookups: 1,
    totalLookups: 1,
    voidLookups: 0,
    totalVoidLookups: 0,
    errors: [],
    children
  }) as any

const input = {
  domain: "shop.example.com",
  ns: ["ns1.dns-host.net.", "ns2.dns-host.net"],
  mx: ["mx.example.com", "aspmx.l.google.com"],
  spf: {
    lookupGraph: node("root", "shop.example.com", [
      node("include", "_spf.google.com", [node("include", "_netblocks.google.com")]),
      node("redirect", "%{d}.macro.example")
    ])
  },
  dmarc: {
    reportDestinations: [
      {
        kind: "rua" as const,
        uri: "mailto:r@reports.example.org",
        domain: "reports.example.org",
        external: true,
        authorised: true,
        verificationName: null,
        maxBytes: null
      }
    ]
  },
  mtaSts: { tlsRpt: { rua: ["mailto:tls@tlsrpt.example.io", "https://collector.example.net/tls"] } },
  bimi: { logoUrl: "https://cdn.brand.example/logo.svg", authorityUrl: null },
  cnames: [
    {
      name: "www.shop.example.com",
      chain: ["shop.pages.example.net"],
      outcome: "answer" as const,
      reason: null
    }
  ]
}

describe("the domains a domain depends on", () => {
  it("names every other registrable domain with the uses that make it one", () => {
    const deps = dependenciesOf(input)
    expect(deps.map((d) => d.domain)).toEqual([
      "brand.example",
      "dns-host.net",
      "example.io",
      "example.net",
      "example.org",
      "google.com"
    ])
    expect(deps.find((d) => d.domain === "google.com")!.uses).toEqual([
      { reason: "MX host", name: "aspmx.l.google.com" },
      { reason: "SPF include", name: "_spf.google.com" },
      { reason: "SPF include", name: "_netblocks.google.com" }
    ])
    expect(deps.find((d) => d.domain === "example.net")!.uses).toEqual([
      { reason: "TLS-RPT rua", name: "collector.example.net" },
      { reason: "CNAME target", name: "shop.pages.example.net" }
    ])
    // Its own registrable domain (mx.example.com) and SPF macros are not dependencies.
    expect(deps.map((d) => d.domain)).not.toContain("example.com")
  })

  it("reads hosts of mailto: and https: addresses", () => {
    expect(hostOf("mailto:a@Reports.Example.org!10m")).toBe("reports.example.org")
    expect(hostOf("https://x.example/p")).toBe("x.example")
    expect(hostOf("not a uri")).toBe(null)
  })

  it("follows a CNAME chain to its end, and a dangling one ends in NXDOMAIN", () => {
    const answer = {
      outcome: "nxdomain",
      answers: [
        { name: "www.a.example.", type: "CNAME", ttl: 60, data: "b.a.example.", text: "" },
        { name: "b.a.example.", type: "CNAME", ttl: 60, data: "gone.cloud.example.", text: "" }
      ]
    } as unknown as DnsAnswer
    expect(cnameProbeOf("www.a.example", Either.right(answer))).toEqual({
      name: "www.a.example",
      chain: ["b.a.example", "gone.cloud.example"],
      outcome: "nxdomain",
      reason: null
    })
  })
})

const registered = (days: number): RdapAnswer => ({
  outcome: "registered",
  url: "https://rdap.example/domain/x",
  expires: new Date(NOW.getTime() + days * 86_400_000 + 3_600_000).toISOString(),
  registered: null,
  statuses: []
})

describe("registration and takeover verdicts", () => {
  const deps = dependenciesOf(input)

  it("warns at 30 and 14 days and fails at 7, for the domain and each dependency", () => {
    const r = analyseRegistration(
      {
        domain: "shop.example.com",
        registrable: "example.com",
        own: registered(100),
        dependencies: deps.map((dependency, i) => ({
          dependency,
          answer: registered([40, 25, 10, 5, 400, 400][i]!)
        }))
      },
      NOW
    )
    expect(r.registration.status).toBe("pass")
    expect(r.dependencies.map((d) => [d.band, d.status])).toEqual([
      [null, "pass"],
      ["30", "warning"],
      ["14", "warning"],
      ["7", "fail"],
      [null, "pass"],
      [null, "pass"]
    ])
    expect(r.status).toBe("fail")
  })

  it("without an RDAP source is unknown, never failed", () => {
    const off: RdapAnswer = { outcome: "off" }
    const r = analyseRegistration(
      {
        domain: "example.com",
        registrable: "example.com",
        own: off,
        dependencies: deps.map((dependency) => ({ dependency, answer: off }))
      },
      NOW
    )
    expect(r.rdapConfigured).toBe(false)
    expect(r.status).toBe("unknown")
    expect(r.issues).toEqual([])
  })

  it("names the record to remove for an unregistered dependency and a dangling alias", () => {
    const t = analyseTakeover(
      {
        domain: "shop.example.com",
        cnames: [
          { name: "www.shop.example.com", chain: ["gone.example.net"], outcome: "nxdomain", reason: null }
        ],
        pages: [],
        rdapConfigured: true,
        dependencies: deps.map((dependency) => ({
          dependency,
          rdap: dependency.domain === "google.com" ? ("not-registered" as const) : ("registered" as const),
          dns: "exists" as const
        }))
      },
      NOW
    )
    expect(t.aliases[0]).toMatchObject({
      risk: "dangling",
      remove: "www.shop.example.com. CNAME gone.example.net."
    })
    expect(t.dependencies.find((d) => d.domain === "google.com")).toMatchObject({
      risk: "unregistered",
      remove: [
        "shop.example.com. MX aspmx.l.google.com.",
        "include:_spf.google.com in the SPF record",
        "include:_netblocks.google.com in the SPF record"
      ]
    })
    const map = dependencyMap({
      domain: toDomain("shop.example.com"),
      computedAt: NOW.toISOString(),
      checks: { takeover: { result: t } }
    })
    expect(map.dependencies.find((d) => d.domain === "google.com")!.verdicts).toEqual([
      expect.objectContaining({ check: "takeover", status: "fail" })
    ])
  })

  it("knows an unclaimed GitHub Pages site by its page", () => {
    const pages = signatureFor("orphan.github.io.")!
    expect(pages.service).toBe("GitHub Pages")
    expect(matchesSignature(pages, 404, "<p>There isn't a GitHub Pages site here.</p>")).toBe(true)
    expect(matchesSignature(pages, 200, "a site")).toBe(false)
    expect(signatureFor("github.io.evil.example")).toBeUndefined()
  })

  it("never throws, whatever RDAP and DNS answered", () => {
    const answer: fc.Arbitrary<RdapAnswer> = fc.oneof(
      fc.constant({ outcome: "off" as const }),
      fc.constant({ outcome: "not-registered" as const, url: "u" }),
      fc.string().map((reason) => ({ outcome: "unknown" as const, reason })),
      fc
        .record({
          days: fc.integer({ min: -400, max: 4000 }),
          statuses: fc.array(fc.constantFrom("active", "client hold", "pending delete"))
        })
        .map(({ days, statuses }) => ({ ...registered(days), statuses }) as RdapAnswer)
    )
    fc.assert(
      fc.property(
        answer,
        fc.array(answer, { maxLength: 6 }),
        fc.array(fc.constantFrom("exists", "nxdomain", "unanswered", "unknown") as fc.Arbitrary<"exists">, {
          minLength: 6,
          maxLength: 6
        }),
        (own, answers, dns) => {
          const r = analyseRegistration(
            {
              domain: "example.com",
              registrable: "example.com",
              own,
              dependencies: answers.map((a, i) => ({ dependency: deps[i]!, answer: a }))
            },
            NOW
          )
          const t = analyseTakeover(
            {
              domain: "example.com",
              cnames: [],
              pages: [],
              rdapConfigured: own.outcome !== "off",
              dependencies: deps.map((dependency, i) => ({
                dependency,
                rdap: r.dependencies[i]?.rdap ?? "off",
                dns: dns[i]!
              }))
            },
            NOW
          )
          // A failed question is never a failure of the domain.
          if (own.outcome === "unknown") expect(r.registration.status).toBe("unknown")
          expect(t.dependencies.length).toBe(deps.length)
        }
      )
    )
  })
})
