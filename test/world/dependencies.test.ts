/**
 * The dependency map, registration expiry and takeover risks against the world: its registry's
 * RDAP server (WORLD_RDAP_BOOTSTRAP), the hosting service that answers "no such site", and the
 * scenarios of docs/world.md "The registry". Without an RDAP source nothing is scored as failed.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const env = worldEnv()
const withRdap = { ...env, RDAP_BOOTSTRAP: env.WORLD_RDAP_BOOTSTRAP ?? "" }

const map = (domain: string) => getJson(`/api/dns/dependencies?domain=${domain}`)
/** The score records of a domain's quick scan, by id. */
const records = (domain: string) =>
  Effect.map(getJson(`/api/scan/quick?domain=${domain}`), (r) => {
    const byId: Record<string, any> = {}
    for (const category of Object.values(r.categories) as Array<any>)
      for (const c of category.checks) byId[c.id] = c
    return byId
  })

describe("dependencies in the world, with its RDAP server", () => {
  layer(testApp(withRdap), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com: registered for a year and more, its dependencies too, nothing at risk", () =>
      Effect.gen(function* () {
        const m = yield* map("perfect.com")
        expect(m.rdapConfigured).toBe(true)
        expect(m.registration).toMatchObject({ domain: "perfect.com", rdap: "registered", status: "pass" })
        expect(m.registration.daysLeft).toBeGreaterThan(300)
        expect(m.registration.rdapUrl).toBe("https://rdap.world-registry.net/domain/perfect.com")
        const host = m.dependencies.find((d: any) => d.domain === "dns-host.net")
        expect(host.uses).toContainEqual({ reason: "NS host", name: "ns1.dns-host.net" })
        // the name servers' own check plugs in for the NS hosts' domain
        expect(host.verdicts.map((v: any) => [v.check, v.status])).toEqual([
          ["registration", "pass"],
          ["takeover", "pass"],
          ["nameservers", "pass"]
        ])
        const r = yield* records("perfect.com")
        expect(r["dns.registration"].status).toBe("pass")
        expect(r["dns.registration.dependencies"].status).toBe("pass")
        expect(r["security.takeover.dependencies"].status).toBe("pass")
        expect(r["security.takeover.cname"].status).toBe("not-applicable")
      })
    )

    it.effect("dep-expiring.com: the domain of its SPF include expires in 10 days", () =>
      Effect.gen(function* () {
        const m = yield* map("dep-expiring.com")
        const soon = m.dependencies.find((d: any) => d.domain === "soon-expiring.net")
        expect(soon.uses).toEqual([{ reason: "SPF include", name: "_spf.soon-expiring.net" }])
        const registration = soon.verdicts.find((v: any) => v.check === "registration")
        expect(registration.status).toBe("warning")
        expect(registration.detail).toMatch(/soon-expiring\.net is registered until .* \((9|10) days\)/)
        const r = yield* records("dep-expiring.com")
        expect(r["dns.registration.dependencies"]).toMatchObject({
          status: "fail",
          issues: ["dependency_expiring"]
        })
        expect(r["dns.registration"].status).toBe("pass")
      })
    )

    it.effect("spf-unregistered.com: its SPF include's domain is not registered (RDAP 404)", () =>
      Effect.gen(function* () {
        const m = yield* map("spf-unregistered.com")
        const never = m.dependencies.find((d: any) => d.domain === "never-registered.net")
        expect(never.verdicts).toContainEqual(
          expect.objectContaining({ check: "registration", status: "fail" })
        )
        expect(never.verdicts).toContainEqual(expect.objectContaining({ check: "takeover", status: "fail" }))
        const r = yield* records("spf-unregistered.com")
        expect(r["security.takeover.dependencies"]).toMatchObject({
          status: "fail",
          issues: ["dependency_unregistered"]
        })
        // The record to remove is named.
        expect(r["security.takeover.dependencies"].detail).toContain("include:_spf.never-registered.net")
      })
    )

    it.effect("dangling-www.com: www is a CNAME to a name that does not exist", () =>
      Effect.gen(function* () {
        const m = yield* map("dangling-www.com")
        expect(m.aliases).toContainEqual(
          expect.objectContaining({
            name: "www.dangling-www.com",
            chain: ["retired-app.unsigned.net"],
            outcome: "nxdomain",
            risk: "dangling",
            status: "fail",
            remove: "www.dangling-www.com. CNAME retired-app.unsigned.net."
          })
        )
        const r = yield* records("dangling-www.com")
        expect(r["security.takeover.cname"]).toMatchObject({ status: "fail", issues: ["cname_dangling"] })
      })
    )

    it.effect("hosted-orphan.com: www points to a hosting site nobody claimed", () =>
      Effect.gen(function* () {
        const m = yield* map("hosted-orphan.com")
        expect(m.aliases).toContainEqual(
          expect.objectContaining({
            name: "www.hosted-orphan.com",
            chain: ["hosted-orphan.github.io"],
            outcome: "answer",
            risk: "unclaimed",
            service: "GitHub Pages",
            remove: "www.hosted-orphan.com. CNAME hosted-orphan.github.io."
          })
        )
        const r = yield* records("hosted-orphan.com")
        expect(r["security.takeover.cname"]).toMatchObject({ status: "fail", issues: ["cname_unclaimed"] })
      })
    )

    it.effect("cname-chain.com: a chain of aliases that ends in an address passes", () =>
      Effect.gen(function* () {
        const m = yield* map("cname-chain.com")
        expect(m.aliases).toContainEqual(
          expect.objectContaining({ name: "www.cname-chain.com", risk: null, status: "pass" })
        )
      })
    )
  })
})

describe("dependencies in the world, without an RDAP source", () => {
  layer(testApp(env), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com: registration unknown, nothing scored as failed", () =>
      Effect.gen(function* () {
        const m = yield* map("perfect.com")
        expect(m.rdapConfigured).toBe(false)
        expect(m.registration).toMatchObject({ rdap: "off", status: "unknown" })
        const r = yield* records("perfect.com")
        for (const id of [
          "dns.registration",
          "dns.registration.dependencies",
          "security.takeover.dependencies"
        ])
          expect(r[id].status).toBe("not-applicable")
      })
    )

    it.effect("dangling-www.com: a dangling CNAME needs no RDAP", () =>
      Effect.gen(function* () {
        const r = yield* records("dangling-www.com")
        expect(r["security.takeover.cname"]).toMatchObject({ status: "fail", issues: ["cname_dangling"] })
      })
    )
  })
})
