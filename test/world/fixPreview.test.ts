/**
 * Proposals previewed in the world (docs/preview.md "Proposals previewed"): the fix `/ai/fix`
 * proposes for spf-toomany.com and dmarc-none.com (its first stage: reports, p=none kept), and the SPF generator's record with `?domain=`,
 * come with the preview of publishing them (`compared`): the issue they fix closed, the grade before
 * and after. A fix that is no record, and a generator asked without a domain, say why nothing was
 * previewed. One app for the file.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const ok = (method: "POST", path: string, body: object) =>
  Effect.map(call(method, path, body), (r) => {
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
    return r.json as any
  })

const ids = (changes: ReadonlyArray<any>, kind: string) =>
  changes.filter((c) => c.kind === kind).map((c) => c.id as string)

layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })(
  "proposals previewed in the world",
  (it) => {
    it.effect("the SPF fix of spf-toomany.com: its issue closes and the grade rises", () =>
      Effect.gen(function* () {
        const body = yield* ok("POST", "/api/ai/fix", {
          issue: "spf_too_many_lookups",
          domain: "spf-toomany.com"
        })
        expect(body.success).toBe(true)
        expect(body.comparedReason, JSON.stringify(body)).toBeNull()
        expect(ids(body.compared.changes, "issue-closed")).toContain("issue/spf_too_many_lookups")
        expect(ids(body.compared.changes, "issue-opened")).not.toContain("issue/spf_too_many_lookups")
        expect(body.compared.preview.percentage).toBeGreaterThan(body.compared.live.percentage)
        expect(body.compared.summary.join(" ")).toContain("Resolved")
        expect(body.compared.notJudged).toEqual([])
      })
    )

    it.effect(
      "the DMARC fix of dmarc-none.com, staged (reports first): its missing reports are resolved",
      () =>
        Effect.gen(function* () {
          const body = yield* ok("POST", "/api/ai/fix", {
            issue: "dmarc_policy_none",
            domain: "dmarc-none.com"
          })
          expect(body.comparedReason, JSON.stringify(body)).toBeNull()
          expect(ids(body.compared.changes, "issue-closed")).toContain("issue/dmarc_no_rua")
          expect(body.compared.changes).toContainEqual(expect.objectContaining({ kind: "record" }))
        })
    )

    it.effect("a header fix is no record: compared is null, and comparedReason says why", () =>
      Effect.gen(function* () {
        const body = yield* ok("POST", "/api/ai/fix", { issue: "hsts_missing", domain: "dmarc-none.com" })
        expect(body.compared).toBeNull()
        expect(body.comparedReason).toContain("HTTP header")
      })
    )

    it.effect("the SPF generator previews its record when a domain is named, and says so when none is", () =>
      Effect.gen(function* () {
        const request = { mechanisms: [{ type: "ip4", value: "192.0.2.1" }, { type: "mx" }], policy: "fail" }
        const named = yield* ok("POST", "/api/email/spf/generate?domain=spf-toomany.com", request)
        expect(named.dnsEntry.name).toBe("spf-toomany.com")
        expect(named.comparedReason, JSON.stringify(named)).toBeNull()
        expect(ids(named.compared.changes, "issue-closed")).toContain("issue/spf_too_many_lookups")
        const unnamed = yield* ok("POST", "/api/email/spf/generate", request)
        expect(unnamed.compared).toBeNull()
        expect(unnamed.comparedReason).toContain("?domain=")
      })
    )
  }
)
