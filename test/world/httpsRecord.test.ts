/**
 * The HTTPS record check (RFC 9460) against the world's zones and web servers: what the record
 * says, what the server negotiates by ALPN and what the target's addresses are, and the scored
 * verdict `dns.https_record` of a quick scan. ECH is reported, never scored.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpsRecord } from "../../src/checks/https-record/HttpsRecord.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { ScanWorld } from "./scanWorld.ts"
import { getJson } from "./world-http.ts"
import { domain as toDomain } from "../support/domain.ts"

/** The world's address of a scenario's web site (its manifest). */
const webAddress = (domain: string): string =>
  JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")).scenarios.find((s: any) => s.domain === domain)
    .web.addr

const check = (domain: string) => runCheck(HttpsRecord, toDomain(domain)).pipe(Effect.provide(ScanWorld))

describe("the HTTPS record in the world", () => {
  it.live(
    "web-content-good.com: alpn h2 and http/1.1 negotiated, the ipv4hint is the site's, ECH published",
    () =>
      Effect.gen(function* () {
        const r = yield* check("web-content-good.com")
        expect(r.status).toBe("present")
        expect(r.chain).toEqual(["web-content-good.com"])
        expect(r.records).toHaveLength(1)
        const [record] = r.records
        expect(record).toMatchObject({
          owner: "web-content-good.com",
          priority: 1,
          target: "web-content-good.com",
          alpn: ["h2", "http/1.1"],
          ipv4hint: [webAddress("web-content-good.com")],
          ech: true,
          hintsMatch: true,
          issues: []
        })
        expect(record!.alpnChecks.map((a) => [a.protocol, a.negotiated])).toEqual([
          ["h2", true],
          ["http/1.1", true]
        ])
        expect(r.echPresent).toBe(true)
        expect(record!.echConfig).toMatchObject({
          usable: true,
          problems: [],
          configs: [
            {
              version: "0xfe0d",
              kem: "DHKEM(X25519, HKDF-SHA256)",
              publicKeyLength: 32,
              cipherSuites: ["HKDF-SHA256/AES-128-GCM", "HKDF-SHA256/ChaCha20Poly1305"],
              publicName: "public.tls-ech.dev",
              usable: true
            }
          ]
        })
        expect(r.consistent).toBe(true)
        expect(r.issues).toEqual([])
      })
  )

  it.live(
    "web-https-rr-ech.com: the ech value's draft config is skipped and its 0xfe0d one is unusable, reported, not held against the record",
    () =>
      Effect.gen(function* () {
        const r = yield* check("web-https-rr-ech.com")
        const [record] = r.records
        expect(record).toMatchObject({ ech: true, hintsMatch: true, issues: [] })
        const ech = record!.echConfig!
        expect(ech.usable).toBe(false)
        expect(ech.configs.map((c) => [c.version, c.usable])).toEqual([
          ["0xfe0a", false],
          ["0xfe0d", false]
        ])
        expect(ech.configs[1]).toMatchObject({
          kem: "DHKEM(P-256, HKDF-SHA256)",
          publicName: "public.web-https-rr-ech.com",
          problems: ["the DHKEM(P-256, HKDF-SHA256) public key is 32 bytes, not 65 (RFC 9180 §7.1)"]
        })
        expect(ech.problems).toEqual([
          "no configuration in the list is one a client can use, so ECH is not offered"
        ])
        // ECH is reported, never scored: the record itself tells the truth
        expect(r.consistent).toBe(true)
      })
  )

  it.live(
    "web-https-rr-lying.com: h2 is not negotiated, h3 cannot be verified, the ipv4hint is not the site's",
    () =>
      Effect.gen(function* () {
        const r = yield* check("web-https-rr-lying.com")
        expect(r.status).toBe("present")
        const [record] = r.records
        expect(record!.alpnChecks.map((a) => [a.protocol, a.negotiated])).toEqual([
          ["h3", null],
          ["h2", false]
        ])
        expect(record!.alpnChecks[0]!.note).toBe("runs over QUIC: not verified")
        expect(record!.hintsMatch).toBe(false)
        expect(record!.ech).toBe(false)
        expect(r.consistent).toBe(false)
        expect(r.issues).toHaveLength(2)
        expect(r.issues[0]).toMatch(/^alpn h2 is not negotiated by web-https-rr-lying\.com \(127\./)
        expect(r.issues[1]).toBe(
          `ipv4hint 127.0.0.9 is not an address of the target (${webAddress("web-https-rr-lying.com")}) (RFC 9460 7.3)`
        )
      })
  )

  it.live(
    "web-https-rr-alias.com: AliasMode followed to cdn, whose alpn is true and whose ipv4hint is not",
    () =>
      Effect.gen(function* () {
        const r = yield* check("web-https-rr-alias.com")
        expect(r.status).toBe("present")
        expect(r.chain).toEqual(["web-https-rr-alias.com", "cdn.web-https-rr-alias.com"])
        const [record] = r.records
        expect(record).toMatchObject({
          owner: "cdn.web-https-rr-alias.com",
          target: "cdn.web-https-rr-alias.com",
          alpn: ["http/1.1"],
          hintsMatch: false
        })
        expect(record!.alpnChecks.map((a) => [a.protocol, a.negotiated])).toEqual([["http/1.1", true]])
        expect(r.consistent).toBe(false)
        expect(r.issues).toEqual([
          `ipv4hint 127.0.0.9 is not an address of the target (${webAddress("web-https-rr-alias.com")}) (RFC 9460 7.3)`
        ])
      })
  )

  it.live("web-noheaders.com: no HTTPS record, which is normal", () =>
    Effect.gen(function* () {
      const r = yield* check("web-noheaders.com")
      expect(r).toMatchObject({
        status: "absent",
        records: [],
        echPresent: false,
        consistent: null,
        issues: []
      })
    })
  )
})

/** The score record `dns.https_record` of a domain's quick scan. */
const scored = (domain: string) =>
  Effect.map(getJson(`/api/scan/quick?domain=${domain}`), (r) => {
    for (const category of Object.values(r.categories) as Array<any>)
      for (const c of category.checks) if (c.id === "dns.https_record") return c
    throw new Error(`no dns.https_record in the quick scan of ${domain}`)
  })

describe("the HTTPS record's scored verdict in the world", () => {
  layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "a truthful record passes (ECH named, not scored); a lying one fails; none is not applicable",
      () =>
        Effect.gen(function* () {
          const good = yield* scored("web-content-good.com")
          expect(good).toMatchObject({ status: "pass", points: 1, maxPoints: 1 })
          expect(good.detail).toBe("1 HTTPS record(s) match the server (ECH published)")
          const lying = yield* scored("web-https-rr-lying.com")
          expect(lying).toMatchObject({ status: "fail", points: 0, maxPoints: 1 })
          expect(lying.issues).toEqual(["https_record_mismatch"])
          // the hint alone is enough to fail, through an AliasMode record
          const alias = yield* scored("web-https-rr-alias.com")
          expect(alias).toMatchObject({ status: "fail", points: 0, issues: ["https_record_mismatch"] })
          expect(alias.detail).toMatch(/^ipv4hint 127\.0\.0\.9 is not an address of the target/)
          const none = yield* scored("web-noheaders.com")
          expect(none).toMatchObject({ status: "not-applicable", detail: "no HTTPS record" })
        })
    )
  })
})
