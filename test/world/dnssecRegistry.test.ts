/**
 * DNSSEC after RFC 9904/9905 against the world's real signed zones (Knot signs, Unbound validates):
 * a DS with the SHA-1 digest alone (sha1-ds.org), signatures shorter than the SOA expire
 * (short-sigs.net), and the chain of trust told apart from an unsigned zone.
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
const dnssec = (domain: string) => get(`/api/dns/dnssec?domain=${domain}`)
const codes = (issues: ReadonlyArray<{ readonly code: string }>) => issues.map((i) => i.code)
/** The DNSSEC issue ids of a domain's quick score. */
const scoreIssues = (domain: string) =>
  Effect.map(get(`/api/scan/quick?domain=${domain}`), (r) =>
    r.issues.map((i: { readonly id: string }) => i.id).filter((id: string) => id.startsWith("dnssec_"))
  )

describe("DNSSEC registries, SHA-1 and the SOA expire in the world", () => {
  layer(testApp(worldEnv()), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("sha1-ds.org: validates, but its only DS is SHA-1 (RFC 9904 Table 3: MUST NOT)", () =>
      Effect.gen(function* () {
        const r = yield* dnssec("sha1-ds.org")
        expect(r).toMatchObject({
          signed: true,
          valid: true,
          state: "secure",
          trust: "secure",
          status: "fail"
        })
        const ds = r.chain.filter((c: any) => c.type === "DS")
        expect(ds.map((c: any) => [c.algorithm, c.digestType, c.digestSecurity, c.dsCheck])).toEqual([
          [8, 1, "insecure", "match"]
        ])
        const deprecated = r.issues.find((i: any) => i.code === "ds-digest-deprecated")
        expect(deprecated).toMatchObject({ severity: "error" })
        expect(r.rrsig.algorithmSecurity).toBe("modern")
        // The score: a point of dnssec.algorithm lost to the digest, nothing else.
        expect(yield* scoreIssues("sha1-ds.org")).toEqual(["dnssec_weak_digest"])
      })
    )

    it.effect("short-sigs.net: signatures expire before the SOA expire, a warning only", () =>
      Effect.gen(function* () {
        const r = yield* dnssec("short-sigs.net")
        expect(r).toMatchObject({ signed: true, valid: true, trust: "secure", status: "warning" })
        expect(r.rrsig.soaExpire).toBe(3_600_000)
        const early = r.rrsig.issues.filter((i: any) => i.code === "rrsig-before-soa-expire")
        expect(early.length).toBeGreaterThanOrEqual(2)
        expect(new Set(early.map((i: any) => i.message.split(" ")[2]))).toEqual(new Set(["SOA", "DNSKEY"]))
        // Renewed with 12 days left: never "expiring" (7 days), never expired.
        expect(codes(r.rrsig.issues)).not.toContain("rrsig-expiring")
        expect(r.errors).toEqual([])
        expect(yield* scoreIssues("short-sigs.net")).toEqual(["dnssec_rrsig_soa_expire"])
      })
    )

    it.effect("perfect.com's signatures outlive its SOA expire; the chain of each kind is named", () =>
      Effect.gen(function* () {
        const perfect = yield* dnssec("perfect.com")
        expect(perfect).toMatchObject({ status: "pass", trust: "secure" })
        expect(codes(perfect.rrsig.issues)).not.toContain("rrsig-before-soa-expire")
        expect((yield* dnssec("unsigned.net")).trust).toBe("unsigned")
        expect(yield* dnssec("bogus-ds.org")).toMatchObject({ state: "bogus", trust: "broken" })
      })
    )
  })
})
