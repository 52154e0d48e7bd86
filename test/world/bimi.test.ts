/**
 * BIMI against the world's scenarios: the record from the world's resolver, the logo and the VMC
 * fetched over HTTPS from the world's nginx through the guarded Web client (trusting the world CA).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { bimiWithLogo } from "../../src/checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../../src/checks/bimi/BimiHtml.ts"
import { withFacts } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const bimi = (domain: string) => withFacts(toDomain(domain), bimiWithLogo)

layer(ScanWorld, { timeout: 60_000, excludeTestServices: true })("BIMI in the world", (it) => {
  it.effect("perfect.com: SVG Tiny PS logo and a VMC covering the domain", () =>
    Effect.gen(function* () {
      const { result: r, logoBody } = yield* bimi("perfect.com")
      expect(r).toMatchObject({
        exists: true,
        valid: true,
        logoUrl: "https://perfect.com/bimi/logo.svg",
        authorityUrl: "https://perfect.com/bimi/vmc.pem",
        logo: { reachable: true, contentTypeOk: true, sizeOk: true, valid: true, svg: { tinyPs: true } },
        authority: {
          reachable: true,
          parsed: true,
          sanCoversDomain: true,
          validNow: true,
          bimiExtendedKeyUsage: true,
          logotypePresent: true,
          logotypeMatchesLogo: true,
          chainLinked: true,
          trademarkVerified: false
        },
        dmarc: { policy: "reject", eligible: true },
        issues: []
      })
      expect(r.status === "pass" || r.status === "warning").toBe(true)
      expect(renderBimiHtml(r, logoBody)).toContain("data:image/svg+xml;base64,")
    })
  )

  it.effect("bimi-badsvg.com: an ordinary SVG with a script is not SVG Tiny PS", () =>
    Effect.gen(function* () {
      const { result: r } = yield* bimi("bimi-badsvg.com")
      expect(r).toMatchObject({
        exists: true,
        valid: false,
        status: "fail",
        logo: { reachable: true, valid: false }
      })
      expect(r.logo?.svg?.scripts).toBeGreaterThan(0)
      expect(r.logo?.svg?.errors.join("\n")).toMatch(/tiny-ps/)
    })
  )

  it.effect("bimi-nologo.com: the logo URL answers 404", () =>
    Effect.gen(function* () {
      const { result: r } = yield* bimi("bimi-nologo.com")
      expect(r).toMatchObject({
        exists: true,
        valid: false,
        status: "fail",
        logo: { reachable: false, httpStatus: 404 }
      })
      expect(r.issues[0]).toContain("could not be fetched")
    })
  )

  it.effect("dmarc-none.com and nomx.net: no BIMI record", () =>
    Effect.gen(function* () {
      for (const d of ["dmarc-none.com", "nomx.net"])
        expect((yield* bimi(d)).result).toMatchObject({ exists: false, record: null, status: "missing" })
    })
  )

  // NEEDS A WORLD RESTART: bimi-decline.com is a scenario added to scripts/world/scenarios.json.
  it.effect("bimi-decline.com (needs world restart): a declination is a valid record that opts out", () =>
    Effect.gen(function* () {
      const { result: r } = yield* bimi("bimi-decline.com")
      expect(r).toMatchObject({
        exists: true,
        declined: true,
        valid: true,
        status: "not-applicable",
        issues: []
      })
    })
  )
})
