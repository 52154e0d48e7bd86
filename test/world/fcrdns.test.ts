/** GET /email/fcrdns against the world's reverse zones. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const fcrdns = (domain: string) => getJson(`/api/email/fcrdns?domain=${domain}`)

describe("FCrDNS in the world", () => {
  layer(testApp(worldEnv()), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com: the MX address's PTR resolves back", () =>
      Effect.gen(function* () {
        const r = yield* fcrdns("perfect.com")
        expect(r).toMatchObject({ domain: "perfect.com", check: "fcrdns" })
        expect(r.citationUrl).toMatch(/rfc1912/)
        expect(r.apiUrl).toMatch(/\/api\/email\/fcrdns\?domain=perfect\.com$/)
        expect(r.result.checked).toBe(true)
        expect(r.result.status).toBe("pass")
        expect(r.result.issues).toEqual([])
        expect(r.result.results.length).toBeGreaterThan(0)
        for (const result of r.result.results)
          expect(result).toMatchObject({
            hostname: "mx.perfect.com",
            ptrRecords: ["mx.perfect.com"],
            confirmedName: "mx.perfect.com",
            forwardConfirmed: true,
            matchesMxHost: true,
            status: "pass"
          })
        // IPv4 and IPv6 addresses are both checked (the world gives mx.perfect.com an AAAA)
        expect(r.result.results.map((x: any) => x.ip.includes(":"))).toEqual([false, true])
      })
    )

    it.effect("mx-noptr.com: no PTR record", () =>
      Effect.gen(function* () {
        const r = yield* fcrdns("mx-noptr.com")
        expect(r.result.status).toBe("fail")
        expect(r.result.results[0]).toMatchObject({ ptrRecords: [], forwardConfirmed: false, status: "fail" })
        expect(r.result.issues[0]).toMatch(/no PTR record/)
      })
    )

    it.effect("mx-ptrmismatch.com: the PTR name points elsewhere", () =>
      Effect.gen(function* () {
        const r = yield* fcrdns("mx-ptrmismatch.com")
        expect(r.result.status).toBe("fail")
        expect(r.result.results[0]).toMatchObject({
          ptrRecords: ["host-unrelated.isp-generic.net"],
          confirmedName: null,
          forwardConfirmed: false,
          matchesMxHost: false
        })
        expect(r.result.issues[0]).toMatch(/does not resolve back/)
      })
    )

    it.effect("dmarc-none.com: no MX and no address, nothing to check", () =>
      Effect.gen(function* () {
        const r = yield* fcrdns("dmarc-none.com")
        expect(r.result).toMatchObject({ checked: false, status: "not-applicable", results: [] })
      })
    )

    it.effect("nomx.net: its implicit MX (the A record, RFC 5321 5.1) has no PTR", () =>
      Effect.gen(function* () {
        // the world's reverse zone names MX hosts only; 127.88.0.18 is nomx.net's bare A record
        const r = yield* fcrdns("nomx.net")
        expect(r.result).toMatchObject({ checked: true, status: "fail" })
        expect(r.result.results).toMatchObject([
          { hostname: "nomx.net", implicit: true, ip: "127.88.0.18", ptrRecords: [], forwardConfirmed: false }
        ])
      })
    )
  })
})
