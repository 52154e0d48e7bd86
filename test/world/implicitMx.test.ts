/**
 * implicit-mx.com in the world: no MX record, so mail goes to the domain's own A record (RFC 5321
 * 5.1), where Postfix answers with a certificate for implicit-mx.com, a signed TLSA 3 1 1 at
 * _25._tcp.implicit-mx.com and a PTR back to the name. Every mail-transport endpoint follows the
 * senders there and says the host is implicit; alias.implicit-mx.com (a CNAME to the apex) has the
 * apex as its implicit MX. Needs a world generated with this scenario (scripts/world/scenarios.json).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const env = worldEnv()
const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
  scenarios: Array<{ domain: string; mx: Array<{ host: string; addr: string; implicit?: boolean }> }>
}
const implicitHost = manifest.scenarios.find((s) => s.domain === "implicit-mx.com")?.mx[0]

describe("implicit MX in the world (RFC 5321 5.1)", () => {
  layer(testApp(env), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "the scenario is in the world: its one mail host is the domain itself, without an MX record",
      () =>
        Effect.sync(() => {
          expect(implicitHost).toMatchObject({ host: "implicit-mx.com", implicit: true })
        })
    )

    it.effect(
      "SMTP TLS probes the domain's own address: STARTTLS with a valid certificate for its name",
      () =>
        Effect.gen(function* () {
          const r = yield* getJson("/api/email/smtp-tls?domain=implicit-mx.com")
          expect(r.mxStatus).toBe("implicit")
          expect(r.mxRecords).toEqual([])
          expect(r.servers).toHaveLength(1)
          expect(r.servers[0]).toMatchObject({
            host: "implicit-mx.com",
            ip: implicitHost!.addr,
            priority: 0,
            implicit: true,
            status: "pass",
            starttls: true,
            certificateValid: true,
            fcrdns: { ptr: ["implicit-mx.com"], confirmed: true }
          })
          expect(r.summary).toMatchObject({ status: "pass", implicitMxSilent: null })
        })
    )

    it.effect("DANE reads _25._tcp.implicit-mx.com (RFC 7672 2.2.3): validated and matching", () =>
      Effect.gen(function* () {
        const r = yield* getJson("/api/dns/tlsa?domain=implicit-mx.com")
        expect(r.tlsaDomain).toBe("_25._tcp.implicit-mx.com")
        expect(r.hosts).toMatchObject([
          { host: "implicit-mx.com", implicit: true, exists: true, dnssecValidated: true }
        ])
        expect(r.hosts[0].dane.daneValid).toBe(true)
        expect(r.status).toBe("pass")
      })
    )

    it.effect("FCrDNS and the blocklists check the implicit MX's address", () =>
      Effect.gen(function* () {
        const f = yield* getJson("/api/email/fcrdns?domain=implicit-mx.com")
        expect(f.result.results).toMatchObject([
          { hostname: "implicit-mx.com", implicit: true, ip: implicitHost!.addr, forwardConfirmed: true }
        ])
        expect(f.result.status).toBe("pass")
        const b = yield* getJson("/api/email/blacklist?domain=implicit-mx.com")
        expect(b.mailServers.map((s: any) => [s.hostname, s.implicit, s.blacklistResult.listed])).toEqual([
          ["implicit-mx.com", true, false]
        ])
      })
    )

    it.effect("a CNAME at the name: the implicit MX is where the chain ends (alias.implicit-mx.com)", () =>
      Effect.gen(function* () {
        const r = yield* getJson("/api/email/smtp-tls?domain=alias.implicit-mx.com")
        expect(r.mxStatus).toBe("implicit")
        expect(r.servers.map((s: any) => [s.host, s.implicit, s.certificateValid])).toEqual([
          ["implicit-mx.com", true, true]
        ])
      })
    )

    it.effect("the score judges its transport like any MX: no mail-transport issue, no null MX advice", () =>
      Effect.gen(function* () {
        const r = yield* getJson("/api/scan/quick?domain=implicit-mx.com")
        const checks = Object.values<any>(r.categories).flatMap((c) => c.checks)
        const status = (id: string) => checks.find((c: any) => c.id === id)?.status
        for (const id of [
          "dns.mx.resolvable",
          "security.mx.starttls",
          "security.mx.cert",
          "security.mx.dane",
          "security.blocklist",
          "dns.ptr",
          "dns.fcrdns"
        ])
          expect([id, status(id)]).toEqual([id, "pass"])
        expect(r.issues.map((i: any) => i.id)).not.toContain("null_mx_missing")
      })
    )
  })
})
