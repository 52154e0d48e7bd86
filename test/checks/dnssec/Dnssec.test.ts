import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import * as fc from "fast-check"
import { analyse, Dnssec, type DnssecFacts, DnssecResult } from "../../../src/checks/dnssec/Dnssec.ts"
import { nsec3Verdict } from "../../../src/checks/dnssec/Nsec3.ts"
import { algorithmSecurity, dsDigest, keyTag } from "../../../src/records/DnssecKeys.ts"
import { DnsError } from "../../../src/net/DnsTypes.ts"
import { parseData } from "../../../src/net/DnsWire.ts"
import type { DnskeyData } from "../../../src/records/DnsRdata.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { runFake } from "../facts.ts"
import { dnssecRecords } from "../../../src/checks/dnssec/Rules.ts"
import { recordsOfRulings } from "../../../src/score/Rules.ts"

// Vectors from ldns-keygen / ldns-key2ds and RFC 4034 5.4.
const KSK =
  "257 3 13 NtGYnWOedCg0t/HjyLyywaS1VKo2PSMvh/azAeUzu8odltBljy3arP3X4F4OxfpEVzfTu0JiVmTnsKwSBsCYkg=="
const KSK_DS256 = "45575 13 2 5b79e31a442ff65610cf3ad8971282555713d007a9e7d1e8bee543e1c8f74b4e"
/** A P-256 zone-signing key (RFC 6605 4: the two coordinates, 64 octets). */
const EC_ZSK =
  "256 3 13 acwiRB3LzazVkAewK8k+HHn051b6FEGQYcIC0ow1i+42kTRK7w+lEnuyybGdswv5PsvpNnSK9g4KhO23cNADRA=="
const RSA_ZSK =
  "256 3 5 AwEAAbIn05mAWLaTphUpxRbDXuNqLhJzOUe+6zQGyEtFNAhRjR2Dsf2/MIWfnH23BLBk4LJ1MLYxiHwyOG7OwxkBoQylbfYuPI7Un2rQOHe8H53s+llveXpEdKJX3C0scJOkIVd7P8f2RpFQDjdSNRF4gXovhzq4PiK71z6ITubVnqPx"
const RFC4034_KEY =
  "256 3 5 AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw=="

const key = (text: string) => parseData("DNSKEY", text) as DnskeyData
const NOW = new Date("2026-11-22T00:00:00Z")
const sig = (covered: string, expires: string, alg = 13, tag = 45575, signer = "example.com.") =>
  `${covered} ${alg} 2 3600 ${expires} 20261101000000 ${tag} ${signer} c2lnbmF0dXJl`

describe("DNSSEC key arithmetic", () => {
  it("computes key tags and DS digests like ldns and RFC 4034", () => {
    expect(keyTag(key(KSK))).toBe(45575)
    expect(keyTag(key(RSA_ZSK))).toBe(64008)
    expect(keyTag(key(RFC4034_KEY))).toBe(60485)
    expect(dsDigest("example.com", key(KSK), 2)).toBe(
      "5B79E31A442FF65610CF3AD8971282555713D007A9E7D1E8BEE543E1C8F74B4E"
    )
    expect(dsDigest("example.com.", key(KSK), 1)).toBe("09CA5B4DC62C9EAC4E81C780ED8D932F829C5FEF")
    expect(dsDigest("Example.COM", key(KSK), 4)).toBe(
      "6AD8C1F32FE44E9967B2E4D3135191B934E388C6807D85C7F3483F99643ABF646067EF9D87B88B1721631E8BC886EA5F"
    )
    expect(dsDigest("dskey.example.com", key(RFC4034_KEY), 1)).toBe(
      "2BB183AF5F22588179A53B0A98631FAD1A292118"
    )
    expect(dsDigest("example.com", key(KSK), 3)).toBeUndefined()
  })

  it("ranks algorithms per RFC 9904 Table 2 and RFC 9905", () => {
    expect([8, 13, 15].map(algorithmSecurity)).toEqual(["modern", "modern", "modern"])
    expect([10].map(algorithmSecurity)).toEqual(["deprecated"])
    expect([1, 3, 5, 6, 7, 12].map(algorithmSecurity)).toEqual(Array(6).fill("insecure"))
    expect([14, 16, 17, 23].map(algorithmSecurity)).toEqual(Array(4).fill("acceptable"))
    expect([0, 2, 4, 99, 252, 255].map(algorithmSecurity)).toEqual(Array(6).fill("insecure"))
    expect([253, 254].map(algorithmSecurity)).toEqual(["unknown", "unknown"])
  })

  it("key tags are 16-bit for any key material (property)", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 65535 }),
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array(),
        (flags, alg, k) => {
          const tag = keyTag({
            flags,
            protocol: 3,
            algorithm: alg,
            publicKey: Buffer.from(k).toString("base64")
          })
          return Number.isInteger(tag) && tag >= 0 && tag <= 65535
        }
      )
    ))
})

describe("RFC 9276 NSEC3 verdict", () => {
  it("accepts 0 iterations and no salt, flags others", () => {
    expect(nsec3Verdict({ hashAlgorithm: 1, flags: 0, iterations: 0, salt: "" }).rfc9276Compliant).toBe(true)
    const legacy = nsec3Verdict({ hashAlgorithm: 1, flags: 0, iterations: 10, salt: "aabbccddeeff0011" })
    expect(legacy.rfc9276Compliant).toBe(false)
    expect(legacy.issues.map((i) => i.code)).toEqual(["nsec3-iterations", "nsec3-salt"])
  })
  it("is compliant exactly when iterations are 0, the salt empty and SHA-1 used (property)", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 65535 }),
        fc.uint8Array({ maxLength: 255 }),
        (hashAlgorithm, flags, iterations, salt) => {
          const v = nsec3Verdict({
            hashAlgorithm,
            flags,
            iterations,
            salt: Buffer.from(salt).toString("hex")
          })
          return v.rfc9276Compliant === (iterations === 0 && salt.length === 0 && hashAlgorithm === 1)
        }
      )
    ))
})

/** The check over a fake zone (with a validating root), as a scan runs it, at NOW. */
const run = (zone: FakeZone, domain = "example.com") =>
  TestClock.setTime(NOW.getTime()).pipe(
    Effect.zipRight(runFake(Dnssec, domain, { zone: { ". DNSKEY": { rdata: [KSK], ad: true }, ...zone } }))
  )

describe("Dnssec gather + analyse", () => {
  it.effect("a secure zone: DS matches the KSK, NSEC3 compliant, signatures fresh", () =>
    Effect.gen(function* () {
      const r = yield* run({
        "example.com DNSKEY": {
          rdata: [KSK, EC_ZSK],
          ad: true,
          rrsig: [sig("DNSKEY", "20261222000000")]
        },
        "example.com DS": { rdata: [KSK_DS256], ad: true },
        "example.com SOA": {
          rdata: ["ns.example.com. h.example.com. 1 2 3 4 300"],
          ad: true,
          rrsig: [sig("SOA", "20261215000000")]
        },
        "example.com NSEC3PARAM": { rdata: ["1 0 0 -"], ad: true }
      })
      expect(r).toMatchObject({ signed: true, valid: true, state: "secure", status: "pass", errors: [] })
      const ksk = r.chain.find((c) => c.role === "KSK")!
      expect(ksk).toMatchObject({
        keyTag: 45575,
        algorithm: 13,
        algorithmName: "ECDSAP256SHA256",
        flags: 257,
        protocol: 3,
        matched: true
      })
      expect(ksk.dsRecord).toBe(`45575 13 2 ${KSK_DS256.split(" ")[3]!.toUpperCase()}`)
      expect(r.chain.find((c) => c.type === "DS")).toMatchObject({
        digestType: 2,
        matched: true,
        keyTag: 45575
      })
      expect(r.rrsig.records.map((x) => [x.typeCovered, x.daysUntilExpiry, x.isExpired])).toEqual([
        ["DNSKEY", 30, false],
        ["SOA", 23, false]
      ])
      expect(r.rrsig.algorithmSecurity).toBe("modern")
      expect(r.nsec3param).toMatchObject({ exists: true, iterations: 0, salt: "", rfc9276Compliant: true })
    })
  )

  it.effect("a name below the apex is judged by its zone's keys", () =>
    Effect.gen(function* () {
      const r = yield* run(
        {
          "example.com DNSKEY": { rdata: [KSK], ad: true },
          "example.com DS": { rdata: [KSK_DS256], ad: true },
          "example.com SOA": { rdata: ["ns.example.com. h.example.com. 1 2 3 4 300"], ad: true },
          "www.example.com A": ["192.0.2.1"]
        },
        "www.example.com"
      )
      expect(r).toMatchObject({ domain: "www.example.com", zone: "example.com", signed: true, valid: true })
      expect(r.chain.find((c) => c.type === "DS")?.matched).toBe(true)
    })
  )

  it.effect("an unsigned zone is signed: false with no errors", () =>
    Effect.gen(function* () {
      const r = yield* run({ "example.com SOA": ["ns.example.com. h.example.com. 1 2 3 4 300"] })
      expect(r).toMatchObject({
        signed: false,
        valid: false,
        status: "missing",
        state: "insecure",
        errors: [],
        chain: []
      })
      expect(r.rrsig.exists).toBe(false)
    })
  )

  it.effect("tells an unsigned zone under an unsigned parent from one under a signed parent", () =>
    Effect.gen(function* () {
      const soa = { "example.com SOA": ["ns.example.com. h.example.com. 1 2 3 4 300"] }
      // No signed denial of the DS: the parent (an unsigned TLD) cannot carry a chain of trust.
      const underUnsigned = yield* run(soa)
      expect(underUnsigned).toMatchObject({ signed: false, parentSigned: false })
      // A validated denial of the DS (AD set): the parent is signed, the zone could be.
      const underSigned = yield* run({ ...soa, "example.com DS": { rdata: [], ad: true } })
      expect(underSigned).toMatchObject({ signed: false, parentSigned: true })
      // The score: failed under a signed parent, not applicable under an unsigned one.
      const records = (result: typeof underSigned) =>
        recordsOfRulings(dnssecRecords({ checks: { dnssec: { status: "done", result } } } as never))
          .filter((r) => r.id === "dnssec.signed" || r.id === "dnssec.valid")
          .map((r) => r.status)
      expect(records(underSigned)).toEqual(["fail", "fail"])
      expect(records(underUnsigned)).toEqual(["not-applicable", "not-applicable"])
    })
  )

  it.effect("a DS matching no key: SERVFAIL, then CD shows the keys; reported as bogus", () =>
    Effect.gen(function* () {
      const r = yield* run({
        "example.com DNSKEY": { rdata: [KSK], bogus: true, rrsig: [sig("DNSKEY", "20261222000000")] },
        "example.com DS": {
          rdata: ["12345 13 2 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"],
          ad: true
        },
        "example.com SOA": { rdata: ["ns.example.com. h.example.com. 1 2 3 4 300"], bogus: true },
        "example.com NSEC3PARAM": { rdata: ["1 0 0 -"], bogus: true }
      })
      expect(r).toMatchObject({ signed: true, valid: false, state: "bogus", status: "fail" })
      expect(r.errors.some((e) => e.includes("DS 12345"))).toBe(true)
      expect(r.errors.some((e) => e.includes("chain of trust is broken"))).toBe(true)
    })
  )

  it.effect("expired signatures are errors with negative days", () =>
    Effect.gen(function* () {
      const r = yield* run({
        "example.com DNSKEY": { rdata: [KSK], bogus: true, rrsig: [sig("DNSKEY", "20240101000000")] },
        "example.com DS": { rdata: [KSK_DS256], ad: true }
      })
      expect(r.state).toBe("bogus")
      expect(r.rrsig.records[0]).toMatchObject({ isExpired: true, typeCovered: "DNSKEY" })
      expect(r.rrsig.records[0]!.daysUntilExpiry).toBeLessThan(-300)
      expect(r.errors.some((e) => e.includes("expired on 2024-01-01"))).toBe(true)
    })
  )

  it.effect("RSASHA1 MUST NOT sign (RFC 9905); legacy NSEC3 is not RFC 9276 compliant", () =>
    Effect.gen(function* () {
      const r = yield* run({
        "example.com DNSKEY": {
          rdata: [RSA_ZSK.replace("256", "257")],
          ad: true,
          rrsig: [sig("DNSKEY", "20261222000000", 5)]
        },
        "example.com DS": { rdata: [], ad: true },
        "example.com NSEC3PARAM": { rdata: ["1 0 10 aabbccddeeff0011"], ad: true }
      })
      expect(r.rrsig.algorithmSecurity).toBe("insecure")
      expect(r.rrsig.issues.map((i) => i.code)).toContain("algorithm-insecure")
      expect(r.nsec3param).toMatchObject({
        exists: true,
        iterations: 10,
        salt: "aabbccddeeff0011",
        rfc9276Compliant: false
      })
      expect(r.status).not.toBe("pass")
    })
  )

  it.effect("an unreachable zone is unknown, not unsigned", () =>
    Effect.gen(function* () {
      const r = yield* run({ "example.com DNSKEY": "SERVFAIL", "example.com DS": "TIMEOUT" })
      expect(r.status).toBe("unknown")
      expect(r.state).toBe("unknown")
      expect(r.errors.length).toBeGreaterThan(0)
    })
  )
})

describe("Dnssec analyse is total (property)", () => {
  const anyText = (type: string) => fc.tuple(fc.constant(type), fc.string())
  const int = (max: number) => fc.integer({ min: 0, max })
  const stamp = fc
    .date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T00:00:00Z"),
      noInvalidDate: true
    })
    .map((d) => d.toISOString().replace(/[-:T]/g, "").slice(0, 14))
  /** Records as the wire gives them: every number an integer in its field's range. */
  const wellFormed = (type: string) =>
    fc.tuple(
      fc.constant(type),
      type === "DNSKEY"
        ? fc
            .tuple(
              fc.constantFrom(256, 257, 0),
              fc.constantFrom(5, 8, 13, 15, 99),
              fc.uint8Array({ minLength: 4 })
            )
            .map(([f, a, k]) => `${f} 3 ${a} ${Buffer.from(k).toString("base64")}`)
        : type === "DS"
          ? fc
              .tuple(
                int(65535),
                fc.constantFrom(8, 13, 15),
                fc.constantFrom(1, 2, 4),
                fc.uint8Array({ minLength: 20, maxLength: 48 })
              )
              .map(([t, a, d, h]) => `${t} ${a} ${d} ${Buffer.from(h).toString("hex")}`)
          : type === "RRSIG"
            ? fc
                .tuple(fc.constantFrom("DNSKEY", "SOA"), fc.constantFrom(5, 13), stamp, stamp, int(65535))
                .map(([c, a, e, i, t]) => `${c} ${a} 2 3600 ${e} ${i} ${t} example.com. c2lnbmF0dXJl`)
            : fc
                .tuple(int(2), int(1), int(200), fc.uint8Array({ maxLength: 8 }))
                .map(
                  ([h, f, n, salt]) =>
                    `${h} ${f} ${n} ${salt.length ? Buffer.from(salt).toString("hex") : "-"}`
                )
    )
  const gatheredOf = (text: (type: string) => fc.Arbitrary<[string, string]>) =>
    fc.oneof(
      fc.record({
        _tag: fc.constant("Answer" as const),
        bogus: fc.boolean(),
        answer: fc.record({
          name: fc.constant("example.com"),
          type: fc.constant("DNSKEY" as const),
          outcome: fc.constantFrom("answer" as const, "nodata" as const, "nxdomain" as const),
          rcode: fc.constant("NOERROR"),
          flags: fc.record({
            aa: fc.boolean(),
            tc: fc.boolean(),
            ra: fc.boolean(),
            ad: fc.boolean(),
            cd: fc.boolean()
          }),
          answers: fc.array(
            fc.oneof(text("DNSKEY"), text("DS"), text("RRSIG"), text("NSEC3PARAM")).map(([type, text]) => ({
              name: "example.com",
              type,
              ttl: 60,
              data: parseData(type, text),
              text
            })),
            { maxLength: 4 }
          ),
          authority: fc.constant([]),
          resolver: fc.constant("192.0.2.53:53"),
          elapsedMs: fc.nat(),
          fromCache: fc.boolean()
        })
      }),
      fc.constant({
        _tag: "Failed" as const,
        error: new DnsError({ name: "example.com", type: "DNSKEY", reason: "timeout", message: "t" })
      })
    )
  const check = (gathered: ReturnType<typeof gatheredOf>, schema: boolean) =>
    fc.assert(
      fc.property(
        gathered,
        gathered,
        gathered,
        gathered,
        fc.option(fc.boolean(), { nil: undefined }),
        (dnskey, ds, soa, nsec3param, v) => {
          const facts: DnssecFacts = {
            domain: "example.com",
            zone: "example.com",
            dnskey,
            ds,
            soa,
            nsec3param,
            resolverValidates: v
          }
          const r = analyse(facts, NOW)
          if (schema) expect(Schema.is(DnssecResult)(r)).toBe(true)
          expect(["pass", "warning", "fail", "missing", "unknown"]).toContain(r.status)
          if (!r.signed) expect(r.valid).toBe(false)
          for (const s of r.rrsig.records) expect(s.isExpired).toBe(s.daysUntilExpiry < 0)
          if (r.status === "pass") expect(r.errors).toEqual([])
          // `trust` refines `state`, never contradicts it.
          expect(r.trust === "secure").toBe(r.state === "secure")
          if (r.state === "bogus") expect(r.trust).toBe("broken")
          if (r.state === "unknown") expect(r.trust).toBe("unknown")
          if (r.trust === "unsigned" || r.trust === "no-ds") expect(r.state).toBe("insecure")
        }
      )
    )
  it("never throws and keeps its invariants on any record text", () => check(gatheredOf(anyText), false))
  it("on records as the wire gives them, the result is what its schema serves", () =>
    check(gatheredOf(wellFormed), true))
})
