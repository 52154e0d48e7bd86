/**
 * Takeover at the names an owner lists (`names=`) against the world: listed-dangling.com's shop.
 * and status. and listed-orphan.com's docs. are aliases that no scan finds by itself (they are
 * neither the apex nor www); listed, each is found as www would be, and the dependency map names
 * the listed name behind each CNAME target. With the registry's RDAP server (WORLD_RDAP_BOOTSTRAP).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const env = worldEnv()
const withRdap = { ...env, RDAP_BOOTSTRAP: env.WORLD_RDAP_BOOTSTRAP ?? "" }

const query = (domain: string, names?: string) => `domain=${domain}${names ? `&names=${names}` : ""}`
const map = (domain: string, names?: string) => getJson(`/api/dns/dependencies?${query(domain, names)}`)
/** The score records of a domain's quick scan, by id. */
const records = (domain: string, names?: string) =>
  Effect.map(getJson(`/api/scan/quick?${query(domain, names)}`), (r) => {
    const byId: Record<string, any> = {}
    for (const category of Object.values(r.categories) as Array<any>)
      for (const c of category.checks) byId[c.id] = c
    return byId
  })

describe("takeover at listed names in the world", () => {
  layer(testApp(withRdap), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("listed-dangling.com: shop. and status. dangle, found only when listed", () =>
      Effect.gen(function* () {
        const plain = yield* map("listed-dangling.com")
        expect(plain.aliases).toEqual([])
        expect(plain.names).toBeUndefined()
        expect(plain.dependencies.map((d: any) => d.domain)).not.toContain("never-registered.net")
        expect((yield* records("listed-dangling.com"))["security.takeover.cname"].status).toBe(
          "not-applicable"
        )

        const names = "shop.listed-dangling.com,STATUS.listed-dangling.com."
        const m = yield* map("listed-dangling.com", names)
        expect(m.names).toEqual(["shop.listed-dangling.com", "status.listed-dangling.com"])
        expect(m.aliases.map((a: any) => [a.name, a.chain, a.outcome, a.risk, a.remove])).toEqual([
          [
            "shop.listed-dangling.com",
            ["closed-shop.unsigned.net"],
            "nxdomain",
            "dangling",
            "shop.listed-dangling.com. CNAME closed-shop.unsigned.net."
          ],
          [
            "status.listed-dangling.com",
            ["status.never-registered.net"],
            "nxdomain",
            "dangling",
            "status.listed-dangling.com. CNAME status.never-registered.net."
          ]
        ])
        // The CNAME target's domain is a dependency; why names the listed name.
        const never = m.dependencies.find((d: any) => d.domain === "never-registered.net")
        expect(never.uses).toEqual([
          { reason: "CNAME target", name: "status.never-registered.net", alias: "status.listed-dangling.com" }
        ])
        expect(never.verdicts).toContainEqual(
          expect.objectContaining({ check: "registration", status: "fail" })
        )
        expect(never.verdicts).toContainEqual(expect.objectContaining({ check: "takeover", status: "fail" }))
        const unsigned = m.dependencies.find((d: any) => d.domain === "unsigned.net")
        expect(unsigned.uses).toEqual([
          { reason: "CNAME target", name: "closed-shop.unsigned.net", alias: "shop.listed-dangling.com" }
        ])

        const r = yield* records("listed-dangling.com", names)
        expect(r["security.takeover.cname"]).toMatchObject({ status: "fail", issues: ["cname_dangling"] })
        expect(r["security.takeover.dependencies"]).toMatchObject({
          status: "fail",
          issues: ["dependency_unregistered"]
        })
        expect(r["security.takeover.dependencies"].detail).toContain(
          "the CNAME at status.listed-dangling.com leading to status.never-registered.net"
        )
      })
    )

    it.effect("listed-orphan.com: docs. points to an unclaimed hosting site, found only when listed", () =>
      Effect.gen(function* () {
        expect((yield* map("listed-orphan.com")).aliases).toEqual([])
        const m = yield* map("listed-orphan.com", "docs.listed-orphan.com")
        expect(m.aliases).toEqual([
          expect.objectContaining({
            name: "docs.listed-orphan.com",
            chain: ["hosted-orphan.github.io"],
            outcome: "answer",
            risk: "unclaimed",
            service: "GitHub Pages",
            status: "fail",
            remove: "docs.listed-orphan.com. CNAME hosted-orphan.github.io."
          })
        ])
        expect(m.dependencies.find((d: any) => d.domain === "github.io").uses).toEqual([
          { reason: "CNAME target", name: "hosted-orphan.github.io", alias: "docs.listed-orphan.com" }
        ])
        const r = yield* records("listed-orphan.com", "docs.listed-orphan.com")
        expect(r["security.takeover.cname"]).toMatchObject({ status: "fail", issues: ["cname_unclaimed"] })
        // The NIS2 scorecard and POST /scan take the names too.
        const full = yield* call("POST", "/api/scan", {
          domain: "listed-orphan.com",
          names: ["docs.listed-orphan.com"]
        })
        expect(full.status).toBe(200)
        expect(full.json.issues.map((i: any) => i.id)).toContain("cname_unclaimed")
        const nis2 = yield* call(
          "GET",
          "/api/scan/nis2?domain=listed-orphan.com&names=docs.listed-orphan.com"
        )
        expect(nis2.status).toBe(200)
      })
    )

    it.effect("a scan with names does not enter the domain's history; the plain scan does", () =>
      Effect.gen(function* () {
        const history = yield* call("GET", "/api/history/listed-orphan.com")
        expect(history.status).toBe(200)
        // The plain scan of the test above entered it, the scans with names did not.
        expect(history.json.entries).toHaveLength(1)
        const entry = yield* call("GET", "/api/history/listed-orphan.com/1")
        expect(JSON.stringify(entry.json)).not.toContain("docs.listed-orphan.com")
      })
    )

    it.effect("a listed name of another domain is refused with 400", () =>
      Effect.gen(function* () {
        const res = yield* call(
          "GET",
          "/api/dns/dependencies?domain=listed-orphan.com&names=hosted-orphan.com"
        )
        expect(res.status).toBe(400)
        expect(res.json.error).toContain("'hosted-orphan.com' is not listed-orphan.com or a name under it")
      })
    )
  })
})
