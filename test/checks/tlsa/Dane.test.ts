import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { execSync } from "node:child_process"
import {
  analyse,
  associationData,
  type DaneInput,
  type DaneServerInput,
  matchRecord
} from "../../../src/checks/tlsa/Dane.ts"
import { Tlsa } from "../../../src/checks/tlsa/Tlsa.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { runFake } from "../facts.ts"
import { type Chain, makeChain, probe, tlsFacts } from "../fixtures.ts"
import { runs } from "../../support/runs.ts"

const HOST = "mx.dane.example"
let good: Chain
let other: Chain

beforeAll(() => {
  good = makeChain([HOST])
  other = makeChain([HOST])
})
afterAll(() => {
  good?.pki.cleanup()
  other?.pki.cleanup()
})

const server = (chain: Chain, over: Partial<DaneServerInput> = {}): DaneServerInput => ({
  address: "192.0.2.25",
  status: "complete",
  stalledStage: null,
  starttls: true,
  chain: [chain.leaf, chain.ca],
  hostnameMatch: true,
  ...over
})

const input = (records: DaneInput["records"], over: Partial<DaneInput> = {}): DaneInput => ({
  host: HOST,
  tlsaDomain: `_25._tcp.${HOST}`,
  lookup: "answer",
  validated: true,
  records,
  servers: [server(good)],
  ...over
})

const openssl = (cmd: string, cwd: string) => execSync(cmd, { cwd, encoding: "utf8" }).trim()

describe("associationData", () => {
  it("agrees with openssl for selectors 0/1 and matching types 1/2", () => {
    const dir = good.pki.dir
    const spki256 = openssl(
      "openssl x509 -in leaf.pem -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -r",
      dir
    ).split(" ")[0]
    const cert512 = openssl("openssl x509 -in leaf.pem -outform DER | openssl dgst -sha512 -r", dir).split(
      " "
    )[0]
    const certHex = openssl("openssl x509 -in leaf.pem -outform DER | od -An -v -tx1 | tr -d ' \\n'", dir)
    expect(associationData(good.leaf, 1, 1)).toBe(spki256)
    expect(associationData(good.leaf, 0, 2)).toBe(cert512)
    expect(associationData(good.leaf, 0, 0)).toBe(certHex)
    expect(associationData(good.leaf, 2, 1)).toBeNull()
    expect(associationData(good.leaf, 1, 3)).toBeNull()
  })
})

describe("DANE verification (RFC 7671 / 7672)", () => {
  const rec = (usage: number, selector: number, matchingType: number, chain = good, index = 0) => ({
    usage,
    selector,
    matchingType,
    data: associationData(index === 0 ? chain.leaf : chain.ca, selector, matchingType)!.toUpperCase()
  })

  it("DANE-EE matches the leaf for every selector and matching type", () => {
    for (const s of [0, 1])
      for (const m of [0, 1, 2]) {
        const result = analyse(input([rec(3, s, m)]))
        expect(result.status, `3 ${s} ${m}`).toBe("pass")
        expect(result.daneValid).toBe(true)
        expect(result.servers[0]!.matchedCertificate).toBe(0)
        expect(result.records[0]!.matchedBy).toEqual(["192.0.2.25"])
      }
  })

  it("DANE-TA matches the issuer the leaf chains to, and needs the name to match", () => {
    for (const s of [0, 1])
      for (const m of [0, 1, 2]) {
        const result = analyse(input([rec(2, s, m, good, 1)]))
        expect(result.status, `2 ${s} ${m}`).toBe("pass")
        expect(result.servers[0]!.matchedCertificate).toBe(1)
      }
    const wrongName = analyse(
      input([rec(2, 1, 1, good, 1)], { servers: [server(good, { hostnameMatch: false })] })
    )
    expect(wrongName.status).toBe("fail")
    // DANE-EE ignores names (RFC 7672 3.1.1)
    const eeWrongName = analyse(input([rec(3, 1, 1)], { servers: [server(good, { hostnameMatch: false })] }))
    expect(eeWrongName.status).toBe("pass")
  })

  it("DANE-TA does not accept a TA the leaf does not chain to", () => {
    const mixed = server(good, { chain: [good.leaf, other.ca] })
    const result = analyse(input([rec(2, 1, 1, other, 1)], { servers: [mixed] }))
    expect(result.status).toBe("fail")
  })

  it("a record for another key fails; a usage-3 record never matches an issuer", () => {
    expect(analyse(input([rec(3, 1, 1, other)])).status).toBe("fail")
    expect(analyse(input([{ ...rec(2, 1, 1), usage: 3 }])).status).toBe("pass")
    expect(analyse(input([{ ...rec(2, 1, 1, good, 1), usage: 3 }])).status).toBe("fail")
  })

  it("is valid only when the RRset was DNSSEC-validated", () => {
    const result = analyse(input([rec(3, 1, 1)], { validated: false }))
    expect(result.daneValid).toBe(false)
    expect(result.status).toBe("warning")
    expect(result.dnssecValidated).toBe(false)
    expect(result.issues.join(" ")).toContain("RFC 7672 2.2")
    // the comparison is still shown
    expect(result.servers[0]!.matched).toBe(true)
  })

  it("PKIX usages are unusable for SMTP", () => {
    const result = analyse(input([rec(1, 1, 1), rec(0, 1, 1, good, 1)]))
    expect(result.records.every((r) => !r.usable)).toBe(true)
    expect(result.status).toBe("fail")
    expect(result.daneValid).toBe(false)
  })

  it("no records, failed lookups, stalled servers and missing STARTTLS", () => {
    expect(analyse(input([], { lookup: "none" })).status).toBe("missing")
    expect(analyse(input([], { lookup: "unknown" })).status).toBe("unknown")
    const slow = server(good, { status: "unknown", stalledStage: "banner", chain: null, starttls: false })
    expect(analyse(input([rec(3, 1, 1)], { servers: [slow] })).status).toBe("unknown")
    const plain = server(good, { chain: null, starttls: false })
    const noTls = analyse(input([rec(3, 1, 1)], { servers: [plain] }))
    expect(noTls.status).toBe("fail")
    expect(noTls.servers[0]!.reason).toContain("STARTTLS")
  })

  it("is total and never claims validity without validation or a match (property)", () => {
    const record = fc.record({
      usage: fc.integer({ min: 0, max: 255 }),
      selector: fc.integer({ min: 0, max: 255 }),
      matchingType: fc.integer({ min: 0, max: 255 }),
      data: fc.string({ maxLength: 80 })
    })
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 5 }),
        fc.boolean(),
        fc.boolean(),
        (records, validated, ok) => {
          const result = analyse(
            input(records, { validated, servers: [server(good, { hostnameMatch: ok })] })
          )
          if (result.daneValid) {
            expect(validated).toBe(true)
            expect(result.servers.every((s) => s.matched)).toBe(true)
          }
          expect(result.records).toHaveLength(records.length)
        }
      ),
      { numRuns: runs(200) }
    )
  })

  it("matchRecord finds exactly the records built from the chain (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 3),
        fc.constantFrom(0, 1),
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        (usage, selector, matchingType, tamper) => {
          const index = usage === 3 ? 0 : 1
          let data = associationData(index === 0 ? good.leaf : good.ca, selector, matchingType)!
          if (tamper) data = (data[0] === "0" ? "1" : "0") + data.slice(1)
          const got = matchRecord({ usage, selector, matchingType, data }, [good.leaf, good.ca], true)
          expect(got).toBe(tamper ? null : index)
        }
      )
    )
  })
})

describe("the check's DANE verification", () => {
  it.effect("reads TLSA through Facts, AD included, and probes the MX addresses", () =>
    Effect.gen(function* () {
      const data = associationData(good.leaf, 1, 1)!
      const run = (tlsa: FakeZone[string], probes = {}) =>
        runFake(Tlsa, "dane.example", {
          zone: {
            "dane.example MX": [`10 ${HOST}.`],
            [`${HOST} A`]: ["192.0.2.25"],
            [`_25._tcp.${HOST} TLSA`]: tlsa
          },
          probes
        })
      const result = (yield* run(
        { rdata: [`3 1 1 ${data}`], ad: true },
        { [`${HOST}|192.0.2.25`]: probe({ host: HOST, tls: tlsFacts([good.leaf, good.ca]) }) }
      )).hosts[0]!.dane!
      expect(result.dnssecValidated).toBe(true)
      expect(result.status).toBe("pass")
      const unsigned = (yield* run({ rdata: [`3 1 1 ${data}`], ad: false })).hosts[0]!.dane!
      expect(unsigned.status).toBe("warning")
      expect(unsigned.daneValid).toBe(false)
      // a failed TLSA lookup leaves nothing to verify: the host is unknown, its DANE not judged
      const failed = (yield* run("SERVFAIL")).hosts[0]!
      expect(failed.status).toBe("unknown")
      expect(failed.dane).toBeNull()
    })
  )
})
