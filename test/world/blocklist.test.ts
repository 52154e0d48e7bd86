/** GET /email/blacklist against the world's DNSBL zones (real return codes). */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const blacklist = (domain: string) => getJson(`/api/email/blacklist?domain=${domain}`)

describe("DNS blocklists in the world", () => {
  layer(testApp(worldEnv()), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("mx-listed.com: listed on every configured zone, codes interpreted", () =>
      Effect.gen(function* () {
        const r = yield* blacklist("mx-listed.com")
        expect(r.domain).toBe("mx-listed.com")
        expect(r.status).toBe("fail")
        const server = r.mailServers[0]
        expect(server.hostname).toBe("mx.mx-listed.com")
        expect(server.blacklistResult.listed).toBe(true)
        const byZone = Object.fromEntries(server.blacklistResult.blacklists.map((b: any) => [b.zone, b]))
        expect(Object.keys(byZone).sort()).toEqual([
          "b.barracudacentral.org",
          "bl.spamcop.net",
          "zen.spamhaus.org"
        ])
        expect(byZone["zen.spamhaus.org"]).toMatchObject({
          name: "Spamhaus ZEN",
          severity: "high",
          listed: true,
          codes: ["127.0.0.2", "127.0.0.4"]
        })
        expect(byZone["zen.spamhaus.org"].meaning).toMatch(/SBL.*XBL/)
        expect(byZone["bl.spamcop.net"]).toMatchObject({ listed: true, codes: ["127.0.0.2"] })
        expect(byZone["b.barracudacentral.org"]).toMatchObject({ listed: true, codes: ["127.0.0.2"] })
        expect(r.summary.listedServers).toBe(1)
      })
    )

    it.effect("perfect.com: clean everywhere", () =>
      Effect.gen(function* () {
        const r = yield* blacklist("perfect.com")
        expect(r.status).toBe("pass")
        const server = r.mailServers[0]
        expect(server.blacklistResult).toMatchObject({ listed: false, status: "clean" })
        expect(server.blacklistResult.blacklists.every((b: any) => b.status === "clean" && !b.listed)).toBe(
          true
        )
        expect(r.issues).toEqual([])
      })
    )
  })
})

describe("a dead blocklist in the world", () => {
  const env = { ...worldEnv(), DNSBL_ZONES: "zen.spamhaus.org,dead-list.com|Dead list|medium" }
  layer(testApp(env), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a zone that does not answer its test entry is unknown, never clean or listed", () =>
      Effect.gen(function* () {
        const r = yield* blacklist("perfect.com")
        const [zen, dead] = r.mailServers[0].blacklistResult.blacklists
        expect(zen).toMatchObject({ name: "Spamhaus ZEN", status: "clean", listed: false })
        expect(dead).toMatchObject({ name: "Dead list", status: "unknown", listed: false })
        expect(dead.meaning).toMatch(/test entry/)
        expect(r.mailServers[0].blacklistResult.status).toBe("unknown")
        expect(r.status).toBe("unknown")
      })
    )
  })
})
