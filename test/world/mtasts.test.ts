/**
 * MTA-STS and TLS-RPT against the world's scenarios: TXT and MX from the world's resolver, the
 * policy fetched from the world's nginx (mta-sts.<domain>, world CA) through the guarded Web client.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MtaSts } from "../../src/checks/mta-sts/MtaSts.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const sts = (domain: string) => runCheck(MtaSts, toDomain(domain))

layer(ScanWorld, { timeout: 60_000, excludeTestServices: true })("MTA-STS in the world", (it) => {
  it.effect("perfect.com: enforce policy covering the MX, trusted certificate, TLS-RPT", () =>
    Effect.gen(function* () {
      const r = yield* sts("perfect.com")
      expect(r).toMatchObject({
        status: "pass",
        exists: true,
        valid: true,
        record: "v=STSv1; id=20260101T000000",
        policyId: "20260101T000000",
        policyUrl: "https://mta-sts.perfect.com/.well-known/mta-sts.txt",
        policy: { version: "STSv1", mode: "enforce", mx: ["mx.perfect.com"], errors: [] },
        fetch: { reachable: true, httpStatus: 200, tlsAuthorized: true },
        mx: { hosts: ["mx.perfect.com"], allCovered: true },
        tlsRpt: { exists: true, valid: true, rua: ["mailto:tlsrpt@perfect.com"] },
        issues: []
      })
    })
  )

  it.effect("mtasts-mismatch.com: the enforce policy does not cover the real MX", () =>
    Effect.gen(function* () {
      const r = yield* sts("mtasts-mismatch.com")
      expect(r).toMatchObject({
        status: "fail",
        exists: true,
        valid: false,
        policy: { mode: "enforce", mx: ["mail.elsewhere-host.net"] },
        mx: {
          hosts: ["mx.mtasts-mismatch.com"],
          coverage: [{ host: "mx.mtasts-mismatch.com", matchedBy: null }],
          allCovered: false
        }
      })
      expect(r.issues.join("\n")).toContain("not covered")
    })
  )

  it.effect("mtasts-nopolicy.com: TXT published, policy file 404", () =>
    Effect.gen(function* () {
      const r = yield* sts("mtasts-nopolicy.com")
      expect(r).toMatchObject({
        status: "fail",
        exists: true,
        valid: false,
        policyId: "2026nopolicy",
        policy: null,
        fetch: { reachable: true, httpStatus: 404 }
      })
      expect(r.issues.join("\n")).toContain("HTTP 404")
    })
  )

  it.effect("mtasts-testing.com: mode testing is a warning; TLS-RPT present", () =>
    Effect.gen(function* () {
      const r = yield* sts("mtasts-testing.com")
      expect(r).toMatchObject({
        status: "warning",
        exists: true,
        valid: true,
        policy: { mode: "testing" },
        mx: { allCovered: true },
        tlsRpt: { exists: true, valid: true }
      })
      expect(r.warnings.join("\n")).toContain("testing")
    })
  )

  it.effect("nomail.org (null MX) and nomx.net (no MX): not applicable", () =>
    Effect.gen(function* () {
      expect(yield* sts("nomail.org")).toMatchObject({
        status: "not-applicable",
        exists: false,
        mx: { nullMx: true }
      })
      // nomx.net has an A record: its implicit MX (RFC 5321 5.1), not judged without a policy
      expect(yield* sts("nomx.net")).toMatchObject({
        status: "not-applicable",
        exists: false,
        mx: { hosts: ["nomx.net"], implicit: true }
      })
    })
  )

  it.effect("dmarc-none.com: no MTA-STS and no TLS-RPT record", () =>
    Effect.gen(function* () {
      const r = yield* sts("dmarc-none.com")
      expect(r.exists).toBe(false)
      expect(r.tlsRpt).toMatchObject({ exists: false, status: "missing" })
    })
  )
})
