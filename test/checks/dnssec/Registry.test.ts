/**
 * The DNSSEC registries, every number 0-255 (RFC 9904 Tables 2 and 3, RFC 9905, IANA ranges), and
 * the verdicts the check draws from them: algorithms, DS digest types, key sizes, NSEC3PARAM.
 */
import { generateKeyPairSync } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { analyse, type DnssecFacts, type Gathered } from "../../../src/checks/dnssec/Dnssec.ts"
import { nsec3Verdict } from "../../../src/checks/dnssec/Nsec3.ts"
import { dnssecRecords } from "../../../src/checks/dnssec/Rules.ts"
import { recordsOfRulings } from "../../../src/score/Rules.ts"
import { parseData } from "../../../src/net/DnsWire.ts"
import type { DnskeyData } from "../../../src/records/DnsRdata.ts"
import * as fc from "fast-check"
import { dsDigest, ecKeyLengthMismatch, keyTag, rsaKeyBits } from "../../../src/records/DnssecKeys.ts"
import { runs } from "../../support/runs.ts"
import {
  ALGORITHM_REGISTRY,
  algorithmRow,
  DIGEST_REGISTRY,
  digestRow,
  unusableReason
} from "../../../src/records/DnssecRegistry.ts"

const NOW = new Date("2026-11-22T00:00:00Z")
const P256 = "NtGYnWOedCg0t/HjyLyywaS1VKo2PSMvh/azAeUzu8odltBljy3arP3X4F4OxfpEVzfTu0JiVmTnsKwSBsCYkg=="

/** The expected registry, written out from RFC 9904 Table 2 / RFC 9905 5 and the IANA ranges. */
const ALGORITHMS: Record<number, [string, string, string]> = {
  0: ["DELETE", "n/a", "insecure"],
  1: ["RSAMD5", "MUST NOT", "insecure"],
  2: ["DH", "n/a", "insecure"],
  3: ["DSA", "MUST NOT", "insecure"],
  5: ["RSASHA1", "MUST NOT", "insecure"],
  6: ["DSA-NSEC3-SHA1", "MUST NOT", "insecure"],
  7: ["RSASHA1-NSEC3-SHA1", "MUST NOT", "insecure"],
  8: ["RSASHA256", "RECOMMENDED", "modern"],
  10: ["RSASHA512", "NOT RECOMMENDED", "deprecated"],
  12: ["ECC-GOST", "MUST NOT", "insecure"],
  13: ["ECDSAP256SHA256", "RECOMMENDED", "modern"],
  14: ["ECDSAP384SHA384", "MAY", "acceptable"],
  15: ["ED25519", "RECOMMENDED", "modern"],
  16: ["ED448", "MAY", "acceptable"],
  17: ["SM2SM3", "MAY", "acceptable"],
  23: ["ECC-GOST12", "MAY", "acceptable"],
  252: ["INDIRECT", "n/a", "insecure"],
  253: ["PRIVATEDNS", "MAY", "unknown"],
  254: ["PRIVATEOID", "MAY", "unknown"]
}
const DIGESTS: Record<number, [string, string, string]> = {
  0: ["NULL (CDS only)", "MUST NOT", "insecure"],
  1: ["SHA-1", "MUST NOT", "insecure"],
  2: ["SHA-256", "RECOMMENDED", "modern"],
  3: ["GOST R 34.11-94", "MUST NOT", "insecure"],
  4: ["SHA-384", "MAY", "acceptable"],
  5: ["GOST R 34.11-2012", "MAY", "acceptable"],
  6: ["SM3", "MAY", "acceptable"]
}
const algorithmKind = (n: number) =>
  [4, 9, 11].includes(n) || (n >= 123 && n <= 251) || n === 255 ? "reserved" : "unassigned"
const digestKind = (n: number) =>
  n >= 253 && n <= 254 ? "private" : n >= 128 && n <= 252 ? "reserved" : "unassigned"

/** RFC 9904 Tables 2 and 3 (RFC 9905 5 leaves them): "Implement for" signing/delegation and validation. */
const ALGORITHM_IMPLEMENT: Record<number, [string, string]> = {
  1: ["MUST NOT", "MUST NOT"],
  3: ["MUST NOT", "MUST NOT"],
  5: ["NOT RECOMMENDED", "MUST"],
  6: ["MUST NOT", "MUST NOT"],
  7: ["NOT RECOMMENDED", "MUST"],
  8: ["MUST", "MUST"],
  10: ["NOT RECOMMENDED", "MUST"],
  12: ["MUST NOT", "MAY"],
  13: ["MUST", "MUST"],
  14: ["MAY", "RECOMMENDED"],
  15: ["RECOMMENDED", "RECOMMENDED"],
  16: ["MAY", "RECOMMENDED"],
  17: ["MAY", "MAY"],
  23: ["MAY", "MAY"],
  253: ["MAY", "MAY"],
  254: ["MAY", "MAY"]
}
const DIGEST_IMPLEMENT: Record<number, [string, string]> = {
  0: ["MUST NOT", "MUST NOT"],
  1: ["MUST NOT", "MUST"],
  2: ["MUST", "MUST"],
  3: ["MUST NOT", "MAY"],
  4: ["MAY", "RECOMMENDED"],
  5: ["MAY", "MAY"],
  6: ["MAY", "MAY"]
}

describe("the registries, every number", () => {
  it('the "Implement for" columns of both registries, every number', () => {
    for (const [registry, want] of [
      [ALGORITHM_REGISTRY, ALGORITHM_IMPLEMENT],
      [DIGEST_REGISTRY, DIGEST_IMPLEMENT]
    ] as const)
      for (const r of registry)
        expect([r.number, r.implementUse, r.implementValidation]).toEqual([
          r.number,
          ...(want[r.number] ?? ["n/a", "n/a"])
        ])
  })
  it('a "Use for" column never says MUST (RFC 9904 2.2)', () => {
    for (const r of [...ALGORITHM_REGISTRY, ...DIGEST_REGISTRY]) {
      expect(r.use).not.toBe("MUST")
      expect(r.validation).not.toBe("MUST")
    }
  })
  it("DNSKEY algorithms 0-255: name, signing column and verdict", () => {
    expect(ALGORITHM_REGISTRY).toHaveLength(256)
    for (let n = 0; n <= 255; n++) {
      const r = ALGORITHM_REGISTRY[n]!
      expect(r.number).toBe(n)
      expect(r.name).not.toMatch(/^UNKNOWN/)
      expect(r.source.length).toBeGreaterThan(0)
      const want = ALGORITHMS[n]
      if (want) expect([r.name, r.use, r.verdict]).toEqual(want)
      else expect([r.kind, r.use, r.verdict]).toEqual([algorithmKind(n), "n/a", "insecure"])
    }
  })
  it("DS digest types 0-255: name, delegation column and verdict", () => {
    expect(DIGEST_REGISTRY).toHaveLength(256)
    for (let n = 0; n <= 255; n++) {
      const r = DIGEST_REGISTRY[n]!
      expect(r.number).toBe(n)
      const want = DIGESTS[n]
      if (want) expect([r.name, r.use, r.verdict]).toEqual(want)
      else
        expect([r.kind, r.verdict]).toEqual([
          digestKind(n),
          digestKind(n) === "private" ? "unknown" : "insecure"
        ])
    }
  })
})

const answer = (records: ReadonlyArray<[string, string]>, ad: boolean): Gathered => ({
  _tag: "Answer",
  bogus: false,
  answer: {
    name: "example.com",
    type: "DNSKEY",
    outcome: records.length > 0 ? "answer" : "nodata",
    rcode: "NOERROR",
    flags: { aa: false, tc: false, ra: true, ad, cd: false },
    answers: records.map(([type, text]) => ({
      name: "example.com",
      type,
      ttl: 60,
      data: parseData(type, text),
      text
    })),
    authority: [],
    resolver: "192.0.2.53:53",
    elapsedMs: 1,
    fromCache: false
  }
})
const facts = (dnskey: Array<string>, ds: Array<string>, ad: boolean, nsec3?: string): DnssecFacts => ({
  domain: "example.com",
  zone: "example.com",
  dnskey: answer(
    dnskey.map((k) => ["DNSKEY", k]),
    ad
  ),
  ds: answer(
    ds.map((d) => ["DS", d]),
    ad
  ),
  soa: answer([], ad),
  nsec3param: answer(nsec3 ? [["NSEC3PARAM", nsec3]] : [], ad),
  resolverValidates: true
})
/** A KSK of `alg` and the DS of digest type 2 that matches it. */
const ksk = (alg: number, pub = P256) => {
  const text = `257 3 ${alg} ${pub}`
  const k = parseData("DNSKEY", text) as DnskeyData
  const ds = (t: number) => `${keyTag(k)} ${alg} ${t} ${dsDigest("example.com", k, t) ?? "00".repeat(32)}`
  return { text, ds }
}
/** An RSA public key in RFC 3110 wire form, base64. */
const rsa = (bits: number) => {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits })
  const jwk = publicKey.export({ format: "jwk" })
  const e = Buffer.from(jwk.e!, "base64url")
  return Buffer.concat([Buffer.from([e.length]), e, Buffer.from(jwk.n!, "base64url")]).toString("base64")
}

describe("algorithm verdicts in the check", () => {
  it("RSASHA512 (10) is NOT RECOMMENDED for signing: a warning, not a pass", () => {
    const k = ksk(10, rsa(2048))
    const r = analyse(facts([k.text], [k.ds(2)], true), NOW)
    expect(r.rrsig.algorithmSecurity).toBe("deprecated")
    expect(r.rrsig.issues.map((i) => i.code)).toContain("algorithm-deprecated")
    expect(r.status).toBe("warning")
  })
  it("17 and 23 are named SM2SM3 and ECC-GOST12", () => {
    for (const [alg, name] of [
      [17, "SM2SM3"],
      [23, "ECC-GOST12"]
    ] as const) {
      const k = ksk(alg)
      const r = analyse(facts([k.text], [k.ds(2)], true), NOW)
      expect(r.chain.find((c) => c.type === "DNSKEY")?.algorithmName).toBe(name)
      expect(r.rrsig.issues.map((i) => i.code)).toEqual(["algorithm-validation-optional"])
    }
  })
  it("every number that cannot sign a zone, with AD off, fails with the reason in errors and issues", () => {
    const cannot = ALGORITHM_REGISTRY.filter((r) => r.kind !== "assigned").map((r) => r.number)
    expect(cannot.length).toBe(256 - 14)
    for (const alg of cannot) {
      const k = ksk(alg)
      const r = analyse(facts([k.text], [k.ds(2)], false), NOW)
      expect(r.status, `algorithm ${alg}`).toBe("fail")
      expect(r.errors.some((e) => e.includes(`algorithm ${alg} `))).toBe(true)
      expect(r.rrsig.issues.some((i) => i.severity === "error")).toBe(true)
    }
  })
  it("a signed zone without AD is never a silent fail", () => {
    const k = ksk(13)
    const r = analyse(facts([k.text], [k.ds(2)], false), NOW)
    expect(r.status).toBe("fail")
    expect(r.errors.join(" ")).toMatch(/no AD bit/)
  })
})

describe("DS digest types in the check", () => {
  it("a SHA-1 DS as the only DS is an error; beside SHA-256 a warning", () => {
    const k = ksk(13)
    const only = analyse(facts([k.text], [k.ds(1)], true), NOW)
    expect(only.issues.find((i) => i.code === "ds-digest-deprecated")?.severity).toBe("error")
    expect(only.status).toBe("fail")
    const both = analyse(facts([k.text], [k.ds(1), k.ds(2)], true), NOW)
    expect(both.issues.find((i) => i.code === "ds-digest-deprecated")?.severity).toBe("warning")
    expect(both.status).toBe("warning")
  })
  it("a digest we cannot compute is 'not verified by us', never 'broken'; AD stands", () => {
    const k = ksk(13)
    const gost12 = `${keyTag(parseData("DNSKEY", k.text) as DnskeyData)} 13 5 ${"ab".repeat(32)}`
    const r = analyse(facts([k.text], [gost12], true), NOW)
    expect(r.valid).toBe(true)
    expect(r.errors).toEqual([])
    expect(r.status).toBe("pass")
    expect(r.chain.find((c) => c.type === "DS")).toMatchObject({ dsCheck: "not-computed", matched: false })
    expect(r.issues.find((i) => i.code === "ds-not-verified")?.message).toMatch(/not verified by us/)
  })
  it("a computed digest that matches nothing is still broken", () => {
    const k = ksk(13)
    const tag = keyTag(parseData("DNSKEY", k.text) as DnskeyData)
    const r = analyse(facts([k.text], [`${tag} 13 2 ${"00".repeat(32)}`], false), NOW)
    expect(r.errors.join(" ")).toMatch(/chain of trust is broken/)
  })
})

describe("key sizes (NIST SP 800-57, RFC 3110, RFC 5702)", () => {
  it("reads the modulus size of RSA keys", () => {
    for (const bits of [1024, 2048, 3072]) expect(rsaKeyBits(rsa(bits))).toBe(bits)
    expect(rsaKeyBits("")).toBeUndefined()
  })
  it("reports every key's size and flags RSA below 2048 bits", () => {
    const short = ksk(8, rsa(1024))
    const r = analyse(facts([short.text], [short.ds(2)], true), NOW)
    expect(r.chain.find((c) => c.type === "DNSKEY")?.keySize).toBe(1024)
    expect(r.issues.find((i) => i.code === "dnskey-rsa-short")?.message).toMatch(/1024-bit/)
    expect(r.status).toBe("warning")
    const good = ksk(8, rsa(2048))
    const g = analyse(facts([good.text], [good.ds(2)], true), NOW)
    expect(g.chain.find((c) => c.type === "DNSKEY")?.keySize).toBe(2048)
    expect(g.status).toBe("pass")
    expect(analyse(facts([ksk(13).text], [ksk(13).ds(2)], true), NOW).chain[0]?.keySize).toBe(256)
  })
  it("an RSASHA512 key under 1024 bits is outside its range (RFC 5702 2): an error", () => {
    const k = ksk(10, rsa(768))
    const r = analyse(facts([k.text], [k.ds(2)], true), NOW)
    expect(r.issues.find((i) => i.code === "dnskey-rsa-size")?.severity).toBe("error")
  })
})

describe("NSEC3PARAM (RFC 5155 4.1.2, RFC 9276 3.1)", () => {
  it("does not infer opt-out from NSEC3PARAM flags; notes flags that make it ignored", () => {
    const v = nsec3Verdict({ hashAlgorithm: 1, flags: 1, iterations: 0, salt: "" })
    expect(v.optOut).toBeNull()
    expect(v.issues.map((i) => i.code)).toEqual(["nsec3param-flags"])
  })
  it("reads opt-out from the NSEC3 records of a denial (RFC 5155 3.1.2.1)", () => {
    const k = ksk(13)
    const withDenial = (flags: number): DnssecFacts => {
      const base = facts([k.text], [k.ds(2)], true, "1 0 0 -")
      const denial = answer([], true)
      if (denial._tag !== "Answer") throw new Error("unreachable")
      const nsec3 = `01${flags.toString(16).padStart(2, "0")}000000`
      return {
        ...base,
        denial: {
          ...denial,
          answer: {
            ...denial.answer,
            authority: [{ name: "x.example.com", type: "NSEC3", ttl: 60, data: nsec3, text: nsec3 }]
          }
        }
      }
    }
    const on = analyse(withDenial(1), NOW)
    expect(on.nsec3param.optOut).toBe(true)
    expect(on.nsec3param.issues.map((i) => i.code)).toContain("nsec3-optout")
    expect(analyse(withDenial(0), NOW).nsec3param.optOut).toBe(false)
    expect(analyse(facts([k.text], [k.ds(2)], true, "1 0 0 -"), NOW).nsec3param.optOut).toBeNull()
  })
  it("notes a salt even with zero iterations (SHOULD NOT)", () => {
    const v = nsec3Verdict({ hashAlgorithm: 1, flags: 0, iterations: 0, salt: "aabb" })
    expect(v.rfc9276Compliant).toBe(false)
    expect(v.issues.find((i) => i.code === "nsec3-salt")?.message).toMatch(/0 iterations.*SHOULD NOT/)
  })
})

describe("elliptic-curve key lengths (RFC 6605 4, RFC 8080 3)", () => {
  it("a key fits exactly when it has its algorithm's length; other algorithms are not judged here (property)", () => {
    const octets: Record<number, number> = { 13: 64, 14: 96, 15: 32, 16: 57 }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 130 }), (alg, key) => {
        const found = ecKeyLengthMismatch(alg, Buffer.from(key).toString("base64"))
        const expected = octets[alg]
        if (expected === undefined) expect(found).toBeUndefined()
        else if (key.length === expected) expect(found).toBeUndefined()
        else expect(found).toEqual({ expected, actual: key.length })
      }),
      { numRuns: runs(300) }
    )
    // The case that passed before: a 67-octet key for each of 13-16.
    for (const alg of [13, 14, 15, 16])
      expect(ecKeyLengthMismatch(alg, Buffer.alloc(67).toString("base64"))?.actual).toBe(67)
  })
  it("a key of another length than its algorithm's is an error; the right length passes", () => {
    const octets = { 13: 64, 14: 96, 15: 32, 16: 57 } as const
    for (const [alg, n] of Object.entries(octets)) {
      const right = ksk(Number(alg), Buffer.alloc(n, 7).toString("base64"))
      const ok = analyse(facts([right.text], [right.ds(2)], true), NOW)
      expect(
        ok.issues.map((i) => i.code),
        `algorithm ${alg}`
      ).not.toContain("dnskey-ec-size")
      for (const wrong of [n - 1, n + 3]) {
        const bad = ksk(Number(alg), Buffer.alloc(wrong, 7).toString("base64"))
        const r = analyse(facts([bad.text], [bad.ds(2)], true), NOW)
        const issue = r.issues.find((i) => i.code === "dnskey-ec-size")
        expect([issue?.severity, issue?.message], `algorithm ${alg}, ${wrong} octets`).toEqual([
          "error",
          expect.stringContaining(`${wrong}-octet public key`)
        ])
        expect(r.status).toBe("fail")
      }
    }
  })
})

describe("the chain of trust: unsigned apart from insecure (RFC 4035 4.3)", () => {
  /** The dnssec.valid record of a result: its status and issue ids. */
  const valid = (r: ReturnType<typeof analyse>) => {
    const record = recordsOfRulings(
      dnssecRecords({ checks: { dnssec: { status: "done", reason: null, result: r } } })
    ).find((x) => x.id === "dnssec.valid")!
    return [record.status, ...(record.issues ?? [])]
  }
  it("tells each case apart, keeps `state` as it was, and names each its issue", () => {
    const k = ksk(13)
    const tag = keyTag(parseData("DNSKEY", k.text) as DnskeyData)
    const cases = [
      [facts([k.text], [k.ds(2)], true), "secure", "secure", ["pass"]],
      [facts([], [], true), "insecure", "unsigned", ["fail", "dnssec_unsigned"]],
      [facts([k.text], [], false), "insecure", "no-ds", ["fail", "dnssec_no_ds"]],
      [
        facts([k.text], [`${tag} 13 2 ${"00".repeat(32)}`], false),
        "insecure",
        "broken",
        ["fail", "dnssec_insecure"]
      ],
      [facts([k.text], [k.ds(2)], false), "insecure", "unvalidated", ["fail", "dnssec_insecure"]]
    ] as const
    for (const [f, state, trust, record] of cases) {
      const r = analyse(f, NOW)
      expect([r.state, r.trust, valid(r)], trust).toEqual([state, trust, record])
    }
  })
  it("a DS matching no key, served only with CD, is broken and bogus", () => {
    const k = ksk(13)
    const f = facts([k.text], [k.ds(2)], false)
    const r = analyse(
      { ...f, dnskey: f.dnskey._tag === "Answer" ? { ...f.dnskey, bogus: true } : f.dnskey },
      NOW
    )
    expect([r.state, r.trust, valid(r)]).toEqual(["bogus", "broken", ["fail", "dnssec_bogus"]])
  })
  it("a resolver that does not validate leaves the chain unknown, not broken", () => {
    const k = ksk(13)
    const r = analyse({ ...facts([k.text], [k.ds(2)], false), resolverValidates: false }, NOW)
    expect([r.state, r.trust, valid(r)[0]]).toEqual(["insecure", "unknown", "unknown"])
  })
  it("a result stored before `trust` existed is judged as before", () => {
    const { trust: _, ...old } = analyse(facts([], [], true), NOW)
    expect(valid(old)).toEqual(["fail", "dnssec_unsigned"])
  })
})

describe("unusableReason", () => {
  it("gives a reason for every number that cannot serve, and none for an assigned one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.boolean(), (n, digest) => {
        const row = digest ? digestRow(n) : algorithmRow(n)
        const reason = unusableReason(row)
        if (row.kind === "assigned") expect(reason).toBeUndefined()
        else expect(reason).toMatch(/^is /)
      })
    )
  })
  it("names the private-use numbers as RFC 4034 A.1.1 does", () => {
    expect(unusableReason(algorithmRow(253))).toContain("private use (RFC 4034 A.1.1)")
  })
})
