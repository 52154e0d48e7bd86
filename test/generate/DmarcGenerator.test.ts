import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import { parseDmarc } from "../../src/records/DmarcRecord.ts"
import { generateDmarc, type DmarcGenerateInput } from "../../src/generate/DmarcGenerator.ts"
import { runs } from "../support/runs.ts"

const ok = (input: DmarcGenerateInput) => {
  const r = generateDmarc(input)
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}
const reason = (input: DmarcGenerateInput) => {
  const r = generateDmarc(input)
  return Either.isLeft(r) ? r.left : undefined
}

describe("DMARC generator", () => {
  it("builds the record with v first and p second", () => {
    const g = ok({ domain: "example.com", policy: "none", rua: "dmarc@example.com" })
    expect(g.record).toBe("v=DMARC1; p=none; rua=mailto:dmarc@example.com")
    expect(g.dnsEntry).toMatchObject({ name: "_dmarc.example.com", type: "TXT", value: g.record })
    expect(g.dnsEntry.zoneLine).toBe(
      '_dmarc.example.com. 3600 IN TXT "v=DMARC1; p=none; rua=mailto:dmarc@example.com"'
    )
    expect(g.warnings.some((w) => w.includes("Rollout step 1"))).toBe(true)
    expect(g.rollout.map((s) => s.policy)).toEqual(["none", "quarantine", "reject"])
  })

  it("takes every input", () => {
    const g = ok({
      policy: "quarantine",
      rua: ["mailto:a@example.com", "b@example.com!10m"],
      ruf: "f@example.com",
      sp: "reject",
      np: "reject",
      pct: 50,
      adkim: "strict",
      aspf: "r",
      fo: "1:d",
      rf: "afrf",
      ri: 3600
    })
    expect(g.record).toBe(
      "v=DMARC1; p=quarantine; sp=reject; np=reject; pct=50; rua=mailto:a@example.com,mailto:b@example.com!10m; ruf=mailto:f@example.com; adkim=s; aspf=r; fo=1:d; rf=afrf; ri=3600"
    )
    expect(g.dnsEntry.name).toBe("_dmarc")
    const text = g.warnings.join("\n")
    for (const needle of ["pct=50", "adkim=s", "ruf", "removed by DMARCbis", "Rollout step 2"])
      expect(text).toContain(needle)
  })

  it("warns about rollout, reporting, alignment and enforcement", () => {
    expect(ok({ policy: "none" }).warnings[0]).toContain("without rua")
    expect(ok({ policy: "reject" }).warnings.join()).toContain("without reports")
    expect(ok({ policy: "reject", sp: "none", rua: "a@example.com" }).warnings.join()).toContain("sp=none")
    expect(ok({ policy: "reject", rua: "a@example.com", aspf: "s" }).warnings.join()).toContain("aspf=s")
  })

  it("names the authorisation record external destinations need (RFC 7489 7.1)", () => {
    const g = ok({ domain: "example.com", policy: "none", rua: "r@vendor.net,d@mail.example.com" })
    expect(g.requiredAuthorisations).toEqual([
      { name: "example.com._report._dmarc.vendor.net", type: "TXT", value: "v=DMARC1" }
    ])
  })

  it("rejects invalid input with a reason", () => {
    expect(reason({ policy: "block" })).toMatchObject({ _tag: "GenerateError", field: "policy" })
    expect(reason({})?.field).toBe("policy")
    expect(reason({ policy: "none", pct: 101 })?.field).toBe("pct")
    expect(reason({ policy: "none", pct: 2.5 })?.field).toBe("pct")
    expect(reason({ policy: "none", rua: "not-an-address" })?.field).toBe("rua")
    expect(reason({ policy: "none", rua: "https://example.com/r" })?.field).toBe("rua")
    expect(reason({ policy: "none", ruf: "mailto:a@" })?.field).toBe("ruf")
    expect(reason({ policy: "none", adkim: "x" })?.field).toBe("adkim")
    expect(reason({ policy: "none", fo: "2" })?.field).toBe("fo")
    expect(reason({ policy: "none", rf: "iodef" })?.field).toBe("rf")
    expect(reason({ policy: "none", ri: -1 })?.field).toBe("ri")
    expect(reason({ policy: "none", domain: "not a domain" })?.field).toBe("domain")
  })

  const address = fc
    .tuple(
      fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,10}[a-z0-9]$/),
      fc.constantFrom("example.com", "vendor.net", "a.b.org")
    )
    .filter(([local]) => !local.includes(".."))
    .map(([l, d]) => `${l}@${d}`)
  const policy = fc.constantFrom("none", "quarantine", "reject")
  const input = fc.record(
    {
      policy,
      rua: fc.array(address, { maxLength: 3 }),
      ruf: fc.array(address, { maxLength: 2 }),
      sp: policy,
      np: policy,
      pct: fc.integer({ min: 0, max: 100 }),
      adkim: fc.constantFrom("r", "s"),
      aspf: fc.constantFrom("relaxed", "strict"),
      fo: fc.uniqueArray(fc.constantFrom("0", "1", "d", "s"), { minLength: 1 }).map((a) => a.join(":")),
      rf: fc.constant("afrf"),
      ri: fc.integer({ min: 0, max: 4_294_967_295 })
    },
    { requiredKeys: ["policy"] }
  )

  it("property: generated records parse back to the configuration that produced them", () => {
    fc.assert(
      fc.property(input, (i) => {
        const g = ok(i)
        const parsed = parseDmarc(g.record)
        expect(parsed.errors).toEqual([])
        expect(parsed.p).toBe(g.config.p)
        expect(parsed.sp ?? undefined).toBe(g.config.sp)
        expect(parsed.np ?? undefined).toBe(g.config.np)
        expect(parsed.pct ?? undefined).toBe(i.pct)
        expect(parsed.rua.map((u) => u.address)).toEqual(i.rua ?? [])
        expect(parsed.ruf.map((u) => u.address)).toEqual(i.ruf ?? [])
        expect(parsed.adkim ?? undefined).toBe(i.adkim)
        expect(parsed.aspf ?? undefined).toBe(i.aspf?.[0])
        expect(parsed.fo?.join(":")).toBe(i.fo)
        expect(parsed.ri ?? undefined).toBe(i.ri)
        expect(g.dnsEntry.strings.join("")).toBe(g.record)
        for (const s of g.dnsEntry.strings) expect(s.length).toBeLessThanOrEqual(255)
      }),
      { numRuns: runs(500) }
    )
  })

  it("property: the generator never throws on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.record(
          { policy: fc.string(), rua: fc.string(), pct: fc.double(), adkim: fc.string(), fo: fc.string() },
          { requiredKeys: [] }
        ),
        (i) => {
          generateDmarc(i)
        }
      )
    )
  })
})
