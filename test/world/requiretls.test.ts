/**
 * REQUIRETLS (RFC 8689) against the world's MTAs: mx-requiretls.com's mail server advertises it in
 * its EHLO reply after STARTTLS (and not before, as RFC 8689 2 has it); unsigned.net's Postfix does
 * not; and its rule shows the verdict without scoring it.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { RequireTls } from "../../src/checks/requiretls/RequireTls.ts"
import { rules } from "../../src/checks/requiretls/Rules.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { worldEnv } from "./env.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const check = (domain: string) => runCheck(RequireTls, toDomain(domain)).pipe(Effect.provide(ScanWorld))

/** The world's address of a scenario's first MX (its manifest). */
const mxAddress = (domain: string): string =>
  JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")).scenarios.find((s: any) => s.domain === domain)
    .mx[0].addr

describe("REQUIRETLS in the world", () => {
  it("mx-requiretls.com's MTA lists REQUIRETLS after STARTTLS only, as openssl sees it", () => {
    const address = mxAddress("mx-requiretls.com")
    const port = worldEnv().SMTP_PORT ?? "25"
    const overTls = execFileSync(
      "bash",
      [
        "-c",
        `(sleep 1; echo "EHLO probe.example"; sleep 1; echo QUIT) | openssl s_client -quiet -starttls smtp -connect ${address}:${port} 2>/dev/null`
      ],
      { encoding: "utf8", timeout: 15_000 }
    )
    expect(overTls).toMatch(/^250[- ]REQUIRETLS\r?$/m)
  })

  it.live("mx-requiretls.com: every mail server advertises it", () =>
    Effect.gen(function* () {
      const r = yield* check("mx-requiretls.com")
      expect(r.status).toBe("all")
      expect(r.servers.length).toBeGreaterThan(0)
      for (const s of r.servers) expect(s).toMatchObject({ requireTls: true, note: null })
    })
  )

  it.live("unsigned.net: Postfix over STARTTLS does not", () =>
    Effect.gen(function* () {
      const r = yield* check("unsigned.net")
      expect(r.status).toBe("none")
      for (const s of r.servers)
        expect(s).toMatchObject({
          requireTls: false,
          note: "REQUIRETLS is not among the EHLO keywords after STARTTLS"
        })
    })
  )

  it.live("mx-nostarttls.com: without STARTTLS there is no REQUIRETLS", () =>
    Effect.gen(function* () {
      const r = yield* check("mx-nostarttls.com")
      expect(r.status).toBe("none")
      for (const s of r.servers) expect(s.note).toBe("no STARTTLS, so no REQUIRETLS")
    })
  )
})

/** The rule's verdict on a check's result, as the score judges a scan that ran it. */
const verdict = (domain: string) =>
  Effect.map(check(domain), (result) => {
    const [ruling] = rules.judge({ checks: { requiretls: { status: "done", reason: null, result } } })
    return { ...ruling!.verdict, maxPoints: ruling!.spec.maxPoints, level: ruling!.spec.level }
  })

describe("REQUIRETLS as the score shows it", () => {
  it.live("is shown and never scored: a pass and a not-applicable, out of 0 points", () =>
    Effect.gen(function* () {
      const offered = yield* verdict("mx-requiretls.com")
      expect(offered).toMatchObject({ status: "pass", maxPoints: 0, level: "info" })
      expect(offered.detail).toMatch(/^every mail server advertises REQUIRETLS/)
      const none = yield* verdict("unsigned.net")
      expect(none).toMatchObject({ status: "not-applicable", maxPoints: 0 })
    })
  )
})
