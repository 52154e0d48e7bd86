/**
 * DKIM discovery with the selectors DMARC reports name (through Facts' `reportedSelectors`), and
 * its three states: confirmed, not confirmed (the selectors tried listed), absent (RFC 8020).
 */
import { describe, expect, it } from "@effect/vitest"
import { generateKeyPairSync } from "node:crypto"
import { Effect } from "effect"
import { Dkim, FIRST_SELECTORS, KNOWN_SELECTORS } from "../../../src/checks/dkim/Dkim.ts"
import { SelectorSource } from "../../../src/kernel/Facts.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { runCheck } from "../../../src/scan/Scanner.ts"
import { fakeNet } from "../facts.ts"
import { domain as toDomain } from "../../support/domain.ts"

const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64")

const dkim = (zone: FakeZone, reported?: ReadonlyArray<string>) => {
  const run = runCheck(Dkim, toDomain("example.com")).pipe(Effect.provide(fakeNet({ zone })), Effect.orDie)
  return reported === undefined
    ? run
    : Effect.provideService(run, SelectorSource, {
        selectorsFor: (domain) => Effect.succeed(domain === "example.com" ? reported : [])
      })
}

describe("DKIM selectors from reports", () => {
  const zone: FakeZone = { "rpt2026._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${key}`] }

  it("rpt2026 is in no list: the selector is not guessed", () =>
    expect(KNOWN_SELECTORS.some((k) => k.selector === "rpt2026")).toBe(false))

  it.effect("a selector named only by reports is asked first and confirmed", () =>
    Effect.gen(function* () {
      const r = yield* dkim(zone, ["rpt2026"])
      expect(r).toMatchObject({
        state: "confirmed",
        status: "pass",
        hasDkim: true,
        reportedSelectors: ["rpt2026"],
        selectors_found: ["rpt2026"]
      })
      expect(r.selectorsChecked[0]).toBe("rpt2026")
      expect(r.stateDetail).toMatch(/rpt2026 \(rsa 2048-bit\); named by DMARC reports/)
    })
  )

  it.effect("without reports the key stays not confirmed, with the selectors tried", () =>
    Effect.gen(function* () {
      const r = yield* dkim(zone)
      expect(r).toMatchObject({ state: "not-confirmed", reportedSelectors: [], hasDkim: false })
      expect(r.selectorsTried).toBe(KNOWN_SELECTORS.length)
      expect(r.stateDetail).toMatch(
        new RegExp(`No DKIM key under the ${KNOWN_SELECTORS.length} selectors tried`)
      )
    })
  )

  it.effect("no _domainkey node at all is absent (RFC 8020), not merely not found", () =>
    Effect.gen(function* () {
      const r = yield* dkim({ "example.com TXT": ["v=spf1 -all"] }, ["rpt2026"])
      expect(r).toMatchObject({ state: "absent", hasDkim: false })
      expect(r.stateDetail).toMatch(/_domainkey\.example\.com does not exist/)
    })
  )

  it.effect("absent ends the sweep: only the reports' and the largest providers' selectors are asked", () =>
    Effect.gen(function* () {
      const r = yield* dkim({ "example.com TXT": ["v=spf1 -all"] }, ["rpt2026"])
      expect(r.selectorsChecked).toEqual(["rpt2026", ...FIRST_SELECTORS])
      expect(r.selectorsTried).toBe(FIRST_SELECTORS.length + 1)
    })
  )

  it.effect("a key beneath an NXDOMAIN node (a server breaking RFC 8020) has the whole list asked", () =>
    Effect.gen(function* () {
      // The fake answers NXDOMAIN for `_domainkey.example.com`, an empty non-terminal.
      const r = yield* dkim({
        "google._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${key}`],
        "zoho._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${key}`]
      })
      expect(r).toMatchObject({ state: "confirmed", selectorsTried: KNOWN_SELECTORS.length })
      expect([...r.selectors_found].sort()).toEqual(["google", "zoho"])
    })
  )

  it.effect("failed look-ups are unknown, never absent", () =>
    Effect.gen(function* () {
      const r = yield* dkim({
        "selector1._domainkey.example.com TXT": "SERVFAIL",
        "x._domainkey.example.com TXT": []
      })
      expect(r.state).toBe("unknown")
    })
  )
})
