/**
 * GET /email/spf, GET /email/check and POST /email/spf/generate through the real app, with DNS answered by a fake
 * server on loopback (DNS_RESOLVERS points at it).
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { EMAIL_SPECS } from "../score/specs.ts"
import { call, withTxtDns } from "./harness.ts"

const TXT: Record<string, ReadonlyArray<string>> = {
  "example.com": ["v=spf1 ip4:192.0.2.1 include:_spf.example.com -all", "google-site-verification=abc"],
  "_spf.example.com": ["v=spf1 ip4:198.51.100.0/24"]
}

const withApp = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) => withTxtDns(TXT, effect)

describe("email SPF endpoints", () => {
  it.scoped("GET /email/spf returns the SPF result with its lookup graph and flattening", () =>
    withApp(
      Effect.gen(function* () {
        const { status, json } = yield* call("GET", "/api/email/spf?domain=Example.com")
        expect(status).toBe(200)
        expect(json).toMatchObject({
          exists: true,
          valid: true,
          record: "v=spf1 ip4:192.0.2.1 include:_spf.example.com -all",
          policy: "fail",
          mechanisms: ["ip4:192.0.2.1", "include:_spf.example.com", "-all"],
          includes: ["_spf.example.com"],
          lookups: 1,
          warnings: [],
          issues: []
        })
        expect(json.lookupGraph.children[0]).toMatchObject({ type: "include", domain: "_spf.example.com" })
        expect(json.flattened.record).toBe("v=spf1 ip4:192.0.2.1 ip4:198.51.100.0/24 -all")
      })
    )
  )

  it.scoped("GET /email/check combines SPF, DKIM, DMARC and MX with the email score", () =>
    withApp(
      Effect.gen(function* () {
        const { status, json } = yield* call("GET", "/api/email/check?domain=example.com")
        expect(status).toBe(200)
        expect(json).toMatchObject({
          success: true,
          domain: "example.com",
          spf: { valid: true, policy: "fail" },
          dkim: { hasDkim: false, discovery: "not-found" },
          dmarc: { exists: false },
          // no MX and (in this zone) no A/AAAA either: no implicit MX to deliver to (RFC 5321 5.1)
          mx: { records: [], implicit: false, status: "warning" }
        })
        // The model's email category: SPF earns its two rules' points, DMARC, MTA-STS and TLS-RPT
        // fail (no records), DKIM is unknown (no key under a known selector) and BIMI does not apply.
        const S = EMAIL_SPECS
        const earned = S.spfValid.maxPoints + S.spfPolicy.maxPoints
        const max =
          earned +
          S.dmarcValid.maxPoints +
          S.dmarcPolicy.maxPoints +
          S.dmarcRua.maxPoints +
          S.mtaSts.maxPoints +
          S.tlsRpt.maxPoints
        expect(json.scoreBreakdown).toMatchObject({
          category: "email",
          points: earned,
          maxPoints: max,
          partial: true
        })
        expect(json.score).toBe(Math.floor((100 * earned) / max))
        expect(
          Object.fromEntries(
            json.scoreBreakdown.checks.map((c: { id: string; status: string }) => [c.id, c.status])
          )
        ).toEqual({
          [S.spfValid.id]: "pass",
          [S.spfPolicy.id]: "pass",
          [S.dmarcValid.id]: "fail",
          [S.dmarcPolicy.id]: "fail",
          [S.dmarcRua.id]: "fail",
          [S.dkim.id]: "unknown",
          [S.mtaSts.id]: "fail",
          [S.tlsRpt.id]: "fail",
          [S.bimi.id]: "not-applicable"
        })
      })
    )
  )

  it.scoped("POST /email/spf/generate builds a record; invalid input is 400 with a reason", () =>
    withApp(
      Effect.gen(function* () {
        const ok = yield* call("POST", "/api/email/spf/generate", {
          mechanisms: [
            { type: "include", value: "_spf.google.com" },
            { type: "ip4", value: "192.0.2.0/24" }
          ],
          useMx: true,
          policy: "fail"
        })
        expect(ok.status).toBe(200)
        expect(ok.json).toMatchObject({
          record: "v=spf1 ip4:192.0.2.0/24 mx include:_spf.google.com -all",
          lookups: 2,
          lookupsIsMinimum: true,
          lengthChecks: { fitsOneString: true, fitsUdp: true },
          dnsEntry: { type: "TXT" }
        })
        const bad = yield* call("POST", "/api/email/spf/generate", {
          mechanisms: [{ type: "ip4", value: "999.1.1.1" }],
          policy: "fail"
        })
        expect(bad).toMatchObject({ status: 400, json: { error: expect.stringContaining("not an IPv4") } })
        const unknown = yield* call("POST", "/api/email/spf/generate", {
          mechanisms: [{ type: "foo" }],
          policy: "fail"
        })
        expect(unknown).toMatchObject({
          status: 400,
          json: { error: expect.stringContaining("unknown mechanism type") }
        })
        const policy = yield* call("POST", "/api/email/spf/generate", { mechanisms: [], policy: "reject" })
        expect(policy.status).toBe(400)
      })
    )
  )
})
