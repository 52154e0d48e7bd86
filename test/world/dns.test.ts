/**
 * The DNS endpoints against the test world (signed private root, validating Unbound, propagation
 * resolvers with one lagging): lookup, DNSSEC, propagation, TLSA and the TLSA generator, over HTTP.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const get = (url: string) =>
  Effect.map(call("GET", url), (r) => {
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`)
    return r.json
  })

const env = worldEnv()

describe("DNS endpoints in the world", () => {
  layer(testApp(env), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("lookup: shape B with real TTLs, response time and resolver", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/lookup?domain=perfect.com")
        expect(r.domain).toBe("perfect.com")
        expect(r.resolver).toBe(`${env.DNS_RESOLVERS}:53`)
        expect(Number.isInteger(r.responseTime)).toBe(true)
        expect(r.records.A[0]).toMatchObject({ type: "A", name: "perfect.com" })
        expect(r.records.A[0].ttl).toBeGreaterThan(0)
        expect(r.records.AAAA.map((x: any) => x.data)).toEqual(["::1"])
        expect(r.records.MX.map((x: any) => x.data)).toEqual(["10 mx.perfect.com."])
        expect(r.records.TXT.map((x: any) => x.data)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^v=spf1 .* -all$/)])
        )
        expect(r.records.CAA.map((x: any) => x.data)).toContain('0 issue "world-ca.test"')
        expect(r.records.SOA).toHaveLength(1)
        expect(r.records.NS.length).toBeGreaterThan(0)
        expect(r.dnssecValidated).toBe(true)
        const plain = yield* get("/api/dns/lookup?domain=unsigned.net&type=A")
        expect(plain.dnssecValidated).toBe(false)
      })
    )

    it.effect("lookup: types list, CNAME chain, unknown type is 400 naming the allowed values", () =>
      Effect.gen(function* () {
        const chain = yield* get("/api/dns/lookup?domain=www.cname-chain.com&type=A")
        expect(chain.records.A.map((x: any) => x.type)).toEqual(["CNAME", "CNAME", "CNAME", "A"])
        expect(chain.records.A.at(-1).data).toBe("127.88.0.14")
        const two = yield* get("/api/dns/lookup?domain=perfect.com&types=a,mx")
        expect(Object.keys(two.records).sort()).toEqual(["A", "MX"])
        const bad = yield* call("GET", "/api/dns/lookup?domain=perfect.com&types=A,AXFR")
        expect(bad.status).toBe(400)
        expect(bad.json.error).toContain("AXFR")
        expect(bad.json.error).toContain("TLSA")
      })
    )

    it.effect("dnssec: perfect.com is signed, valid, modern, RFC 9276 compliant", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/dnssec?domain=perfect.com")
        expect(r).toMatchObject({ signed: true, valid: true, state: "secure", status: "pass", errors: [] })
        expect(r.chain.some((c: any) => c.type === "DNSKEY" && c.flags === 257 && c.algorithm === 13)).toBe(
          true
        )
        expect(r.chain.filter((c: any) => c.type === "DS").every((c: any) => c.matched)).toBe(true)
        expect(r.chain.find((c: any) => c.type === "DNSKEY").algorithmName).toBe("ECDSAP256SHA256")
        expect(r.nsec3param).toMatchObject({
          exists: true,
          iterations: 0,
          salt: "",
          rfc9276Compliant: true,
          // read from the NSEC3 records of a denial, not from NSEC3PARAM (RFC 5155 4.1.2)
          optOut: false
        })
        expect(r.rrsig.exists).toBe(true)
        expect(r.rrsig.algorithmSecurity).toBe("modern")
        expect(r.rrsig.records.every((s: any) => !s.isExpired && s.daysUntilExpiry >= 0)).toBe(true)
      })
    )

    it.effect("dnssec: a name below the apex (www.cname-chain.com) is judged by its zone", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/dnssec?domain=www.cname-chain.com")
        expect(r).toMatchObject({
          domain: "www.cname-chain.com",
          zone: "cname-chain.com",
          signed: true,
          valid: true
        })
      })
    )

    it.effect("dnssec: unsigned.net is signed: false without errors", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/dnssec?domain=unsigned.net")
        expect(r).toMatchObject({ signed: false, valid: false, errors: [], chain: [], status: "missing" })
      })
    )

    it.effect("dnssec: bogus-ds.org is bogus with the DS matching no key", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/dnssec?domain=bogus-ds.org")
        expect(r).toMatchObject({ signed: true, valid: false, state: "bogus", status: "fail" })
        expect(r.errors.join("\n")).toMatch(/matches no DNSKEY/)
        expect(r.chain.some((c: any) => c.type === "DS" && !c.matched)).toBe(true)
      })
    )

    it.effect("dnssec: expired-sig.com reports expired signatures", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/dnssec?domain=expired-sig.com")
        expect(r).toMatchObject({ signed: true, valid: false, state: "bogus", status: "fail" })
        expect(r.rrsig.records.some((s: any) => s.isExpired && s.daysUntilExpiry < 0)).toBe(true)
        expect(r.errors.join("\n")).toMatch(/expired on 2024/)
      })
    )

    it.effect(
      "dnssec: rsasha1.net signs with RSASHA1 (MUST NOT, RFC 9905) and a 1024-bit ZSK; nsec3-legacy.org is not RFC 9276 compliant",
      () =>
        Effect.gen(function* () {
          const sha1 = yield* get("/api/dns/dnssec?domain=rsasha1.net")
          expect(sha1.signed).toBe(true)
          expect(sha1.rrsig.algorithmSecurity).toBe("insecure")
          expect(sha1.chain.find((c: any) => c.type === "DNSKEY").algorithmName).toBe("RSASHA1")
          expect(sha1.nsec3param.exists).toBe(false)
          expect(sha1.status).toBe("fail")
          // Key sizes per role (Zonemaster DNSSEC14 flags the same key).
          const sizes = sha1.chain
            .filter((c: any) => c.type === "DNSKEY")
            .map((c: any) => [c.role, c.keySize])
          expect(sizes.sort()).toEqual([
            ["KSK", 2048],
            ["ZSK", 1024]
          ])
          expect(sha1.issues.find((i: any) => i.code === "dnskey-rsa-short").message).toMatch(/1024-bit RSA/)
          const legacy = yield* get("/api/dns/dnssec?domain=nsec3-legacy.org")
          expect(legacy.valid).toBe(true)
          expect(legacy.nsec3param).toMatchObject({ exists: true, iterations: 10, rfc9276Compliant: false })
          expect(legacy.nsec3param.salt).toHaveLength(16)
          expect(legacy.status).toBe("warning")
        })
    )

    it.effect("propagation: all resolvers agree on perfect.com", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/dns/propagation?domain=perfect.com")
        expect(r).toMatchObject({
          success: true,
          domain: "perfect.com",
          type: "A",
          recordType: "A",
          propagated: true,
          recordExists: true
        })
        expect(r.servers_checked).toBe(5)
        expect(r.servers_matching).toBe(5)
        expect(r.results[0]).toHaveProperty("resolver.ip")
        expect(r.results.every((x: any) => x.success && x.status === "match")).toBe(true)
      })
    )

    it.effect("propagation: the lagging resolver disagrees on propagation-lag.com", () =>
      Effect.gen(function* () {
        for (const [type, fresh, old] of [
          ["A", "127.88.1.2", "127.88.1.1"],
          ["MX", "10 mail.unsigned.net.", "10 mail-old.unsigned.net."],
          ["TXT", "v=spf1 ip4:127.88.1.2 -all", "v=spf1 ip4:127.88.1.1 -all"]
        ] as const) {
          const r = yield* get(`/api/dns/propagation?domain=propagation-lag.com&type=${type}`)
          expect(r.propagated).toBe(false)
          expect(r.servers_checked).toBe(5)
          expect(r.servers_matching).toBe(4)
          expect(r.consensus).toEqual([fresh])
          const lag = r.results.find((x: any) => x.resolver.ip === env.WORLD_LAGGING_RESOLVER)
          expect(lag).toMatchObject({ status: "differs", value: [old], success: true })
        }
      })
    )

    it.effect(
      "tlsa: perfect.com's MX has a validated 3 1 1; dane-mismatch.com's TLSA is found and validated",
      () =>
        Effect.gen(function* () {
          const r = yield* get("/api/dns/tlsa?domain=perfect.com")
          expect(r).toMatchObject({
            domain: "perfect.com",
            port: 25,
            protocol: "tcp",
            tlsaDomain: "_25._tcp.mx.perfect.com",
            exists: true,
            dnssecValidated: true,
            status: "pass"
          })
          expect(r.records[0]).toMatchObject({ usage: 3, selector: 1, matchingType: 1 })
          expect(r.records[0].usageDescription).toContain("DANE-EE")
          const mismatch = yield* get("/api/dns/tlsa?domain=dane-mismatch.com")
          expect(mismatch).toMatchObject({
            exists: true,
            dnssecValidated: true,
            tlsaDomain: "_25._tcp.mx.dane-mismatch.com"
          })
          const none = yield* get("/api/dns/tlsa?domain=unsigned.net")
          expect(none).toMatchObject({ exists: false, status: "missing" })
        })
    )

    it.effect("tlsa/generate: rejects private keys with 400", () =>
      Effect.gen(function* () {
        const bad = yield* call("POST", "/api/dns/tlsa/generate", {
          pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
          usage: 3,
          selector: 1,
          matching: 1,
          host: "mx.perfect.com",
          port: 25
        })
        expect(bad.status).toBe(400)
        expect(bad.json.error).toContain("private key")
      })
    )
  })
})
