/**
 * DKIM discovery against the world's scenarios (scripts/world/scenarios.json).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dkimWith, FIRST_SELECTORS } from "../../src/checks/dkim/Dkim.ts"
import { withFacts } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const dkim = (domain: string, selectors: ReadonlyArray<string> = []) =>
  withFacts(toDomain(domain), dkimWith(selectors))

layer(ScanWorld, { timeout: 60_000 })("DKIM in the world", (it) => {
  it.effect("perfect.com: RSA-2048 and Ed25519 keys discovered from the common-selector list", () =>
    Effect.gen(function* () {
      const r = yield* dkim("perfect.com")
      expect(r).toMatchObject({
        status: "pass",
        hasDkim: true,
        valid_keys: 2,
        discovery: "found",
        issues: []
      })
      expect([...r.selectors_found].sort()).toEqual(["ed25519", "selector1"])
      expect(r.selectorsFound.map((s) => [s.selector, s.keyType, s.keyLength, s.valid]).sort()).toEqual([
        ["ed25519", "ed25519", 256, true],
        ["selector1", "rsa", 2048, true]
      ])
      expect(r.failedSelectors).toEqual([])
    })
  )

  it.effect("unsigned.net has no _domainkey node: absent after the first selectors, the list not swept", () =>
    Effect.gen(function* () {
      const r = yield* dkim("unsigned.net")
      expect(r).toMatchObject({
        state: "absent",
        discovery: "not-found",
        hasDkim: false,
        failedSelectors: []
      })
      expect(r.selectorsChecked).toEqual(FIRST_SELECTORS)
    })
  )

  it.effect("dkim-weak.com: the RSA-1024 key at s1024 is a warning", () =>
    Effect.gen(function* () {
      const r = yield* dkim("dkim-weak.com")
      expect(r).toMatchObject({ status: "warning", hasDkim: true, valid_keys: 1, selectors_found: ["s1024"] })
      expect(r.selectorsFound[0]).toMatchObject({
        keyType: "rsa",
        keyLength: 1024,
        valid: true,
        status: "warning"
      })
      expect(r.warnings.join()).toContain("RSA-1024")
    })
  )

  it.effect("dkim-revoked.com: the empty p= is revoked, no usable key", () =>
    Effect.gen(function* () {
      const r = yield* dkim("dkim-revoked.com")
      expect(r).toMatchObject({
        status: "fail",
        hasDkim: false,
        valid_keys: 0,
        selectors_found: ["selector2"]
      })
      expect(r.selectorsFound[0]).toMatchObject({ revoked: true, valid: false, keyLength: null })
    })
  )

  it.effect("a caller's selector is asked first and reported as requested", () =>
    Effect.gen(function* () {
      const r = yield* dkim("dkim-weak.com", ["s1024", "nothere"])
      expect(r.selectorsChecked.slice(0, 2)).toEqual(["s1024", "nothere"])
      expect(r.selectorsFound[0]).toMatchObject({ selector: "s1024", requested: true })
      expect(r.issues).toContain("No DKIM key at nothere._domainkey.dkim-weak.com")
    })
  )

  it.effect("nomail.org and nomx.net: nothing found is 'not found' (unknown), never 'no DKIM'", () =>
    Effect.gen(function* () {
      for (const d of ["nomail.org", "nomx.net"]) {
        const r = yield* dkim(d)
        expect(r).toMatchObject({
          status: "unknown",
          discovery: "not-found",
          selectors_found: [],
          hasDkim: false
        })
        expect(r.issues[0]).toContain("may still be set up")
      }
    })
  )
})
