/**
 * The name-server check against the world's Knot servers, each asked directly: a domain on the
 * default pair passes everything; ns-single.com, ns-lame.com and ns-no-ipv6.com each fail the
 * verdict their scenario stages (scripts/world/scenarios.json).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { NameServerCheck } from "../../src/checks/nameservers/NameServerCheck.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const check = (domain: string) => runCheck(NameServerCheck, toDomain(domain))

layer(ScanWorld, { timeout: 60_000 })("name servers in the world", (it) => {
  it.effect("perfect.com: two servers in two /24s, authoritative, consistent, IPv6, TCP, no recursion", () =>
    Effect.gen(function* () {
      const r = yield* check("perfect.com")
      expect(r.parentZone).toBe("com")
      expect(r.delegation).toEqual(["ns1.dns-host.net", "ns2.dns-host.net"])
      expect(r.zoneNameServers).toEqual(["ns1.dns-host.net", "ns2.dns-host.net"])
      for (const v of Object.values(r.verdicts)) expect(v.status, v.message).toBe("pass")
      expect(r.status).toBe("pass")
      expect(r.issues).toEqual([])
      const ns1 = r.servers.find((s) => s.host === "ns1.dns-host.net")!
      expect(ns1.addresses).toEqual(["127.53.0.1", "::1"])
      expect(ns1.results.map((x) => x.family)).toEqual([4, 6])
      // Every server answers the same serial; which one is the zone's business (scripts/world/mutate
      // --reset raises it, as a zone's owner does), not this check's.
      const serials = new Set(r.servers.flatMap((s) => s.results.map((x) => x.serial)))
      expect(serials.size).toBe(1)
      expect([...serials][0]).toBeGreaterThanOrEqual(2026010100)
      for (const s of r.servers)
        for (const x of s.results)
          expect(x).toMatchObject({ authoritative: true, tcp: true, openRecursion: false })
      expect(r.verdicts.networks.message).toContain("127.53.3.0/24")
    })
  )

  it.effect("ns-single.com: one name server, one network", () =>
    Effect.gen(function* () {
      const r = yield* check("ns-single.com")
      expect(r.delegation).toEqual(["ns1.dns-host.net"])
      expect(r.verdicts.count.status).toBe("fail")
      expect(r.verdicts.networks).toMatchObject({ status: "fail" })
      expect(r.verdicts.networks.message).toContain("127.53.0.0/24")
      expect(r.verdicts.authoritative.status).toBe("pass")
      expect(r.verdicts.ipv6.status).toBe("pass")
      expect(r.status).toBe("fail")
    })
  )

  it.effect("ns-lame.com: lame.dns-host.net answers REFUSED for the zone", () =>
    Effect.gen(function* () {
      const r = yield* check("ns-lame.com")
      expect(r.delegation).toEqual(["lame.dns-host.net", "ns1.dns-host.net", "ns2.dns-host.net"])
      const lame = r.servers.find((s) => s.host === "lame.dns-host.net")!
      expect(lame.results).toEqual([
        expect.objectContaining({ address: "127.53.0.9", authoritative: false, status: "fail" })
      ])
      expect(lame.results[0]!.message).toContain("REFUSED")
      expect(r.verdicts.authoritative.status).toBe("fail")
      expect(r.verdicts.authoritative.message).toContain("lame.dns-host.net")
      // the others are fine
      for (const s of r.servers.filter((x) => x.host !== "lame.dns-host.net")) expect(s.status).toBe("pass")
      expect(r.status).toBe("fail")
    })
  )

  it.effect("ns-no-ipv6.com: two IPv4-only servers in two /24s", () =>
    Effect.gen(function* () {
      const r = yield* check("ns-no-ipv6.com")
      expect(r.delegation).toEqual(["ns2.dns-host.net", "ns4.dns-host.net"])
      expect(r.verdicts.ipv6).toMatchObject({ status: "fail" })
      expect(r.verdicts.ipv6.message).toContain("no name server has an IPv6 address")
      expect(r.verdicts.networks.status).toBe("pass")
      expect(r.verdicts.authoritative.status).toBe("pass")
      expect(r.status).toBe("warning")
    })
  )
})
