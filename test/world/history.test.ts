/**
 * The history in the world: full scans through the API enter the domain's history, served by the
 * /api/history endpoints (list with the chain's verdict, one stored scan, diff, evidence as JSON and
 * markdown); two scenarios' live scans, diffed as one domain's, name the DMARC policy change.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { verifyDocument } from "../../src/cli/Verify.ts"
import { ScanResult } from "../../src/scan/ScanResult.ts"
import { canonicalJson, sha256Of } from "../../src/report/Canonical.ts"
import { diffScans } from "../../src/monitor/Diff.ts"
import { entryHashOf } from "../../src/monitor/HistoryChain.ts"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { domain as toDomain } from "../support/domain.ts"

const decodeScan = Schema.decodeUnknownSync(ScanResult)

describe("history in the world", () => {
  // No scan cache: each POST /scan is a fresh full scan.
  layer(testApp({ ...worldEnv(), SCAN_CACHE_TTL_MS: "0" }), { timeout: 180_000, excludeTestServices: true })(
    (it) => {
      it.effect("records each fresh scan, serves it verifiably, and diffs and evidences the entries", () =>
        Effect.gen(function* () {
          for (let i = 0; i < 2; i++)
            expect((yield* call("POST", "/api/scan", { domain: "perfect.com" })).status).toBe(200)
          const list = yield* call("GET", "/api/history/perfect.com")
          expect(list.status).toBe(200)
          expect(list.json).toMatchObject({ domain: "perfect.com", chainValid: true, invalidSeq: null })
          expect(list.json.entries.map((e: any) => [e.seq, e.grade])).toEqual([
            [1, "A+"],
            [2, "A+"]
          ])
          const [first, second] = list.json.entries
          expect(second.previousHash).toBe(first.hash)

          // The recipe of docs/monitoring.md, with the hashes alone.
          const entry = yield* call("GET", "/api/history/perfect.com/2")
          expect(entry.status).toBe(200)
          expect(sha256Of(canonicalJson(entry.json.scan))).toBe(second.contentHash)
          const { hash, ...fields } = entry.json.entry
          expect(entryHashOf("perfect.com", fields)).toBe(hash)
          expect(decodeScan(entry.json.scan).domain).toBe("perfect.com")

          // Two scans of an unchanged domain: no record, certificate or listing changed.
          const diff = yield* call("GET", "/api/history/perfect.com/diff")
          expect(diff.status).toBe(200)
          expect([diff.json.from.seq, diff.json.to.seq]).toEqual([1, 2])
          expect(diff.json.changes.filter((c: any) => c.kind !== "check")).toEqual([])

          const evidence = yield* call("GET", "/api/history/perfect.com/evidence")
          expect(evidence.status).toBe(200)
          expect(evidence.json.entries.map((e: any) => e.hash)).toEqual([first.hash, second.hash])
          expect(evidence.json.checks.find((c: any) => c.id === "email.dmarc.policy").passShare).toBe(1)
          expect(evidence.json.measures.length).toBeGreaterThan(0)
          // signed as served: it verifies under the published key set, and not once a share is changed
          const keys = yield* call("GET", "/.well-known/domain-audit-keys.json")
          expect(verifyDocument(evidence.json, undefined, keys.json.keys)).toMatchObject({ valid: true })
          const changed = structuredClone(evidence.json)
          changed.checks[0].passShare = changed.checks[0].passShare === 1 ? 0 : 1
          expect(verifyDocument(changed, undefined, keys.json.keys).lines[0]).toMatch(
            /^NOT VERIFIED: the signature does not hold/
          )
          const markdown = yield* call("GET", "/api/history/perfect.com/evidence?format=markdown")
          expect(markdown.type).toMatch(/^text\/markdown/)
          expect(markdown.text).toContain(second.contentHash)
          expect(markdown.text).toContain("The history's hash chain verifies.")
        })
      )

      it.effect("answers a history that is not there with 404, and bad parameters with 400", () =>
        Effect.gen(function* () {
          expect((yield* call("GET", "/api/history/never-scanned.com")).status).toBe(404)
          expect((yield* call("GET", "/api/history/perfect.com/999")).status).toBe(404)
          for (const bad of [
            "/api/history/perfect.com/0",
            "/api/history/perfect.com/x1",
            "/api/history/perfect.com/diff?from=abc",
            "/api/history/perfect.com/evidence?from=yesterday",
            "/api/history/perfect.com/evidence?from=2030-01-01&to=2020-01-01",
            "/api/history/localhost"
          ]) {
            const r = yield* call("GET", bad)
            expect([bad, r.status]).toEqual([bad, 400])
            expect(typeof r.json.error).toBe("string")
          }
        })
      )

      it.effect(
        "diffs two scenarios' live scans as one domain's: the DMARC policy went from reject to none",
        () =>
          Effect.gen(function* () {
            for (const domain of ["perfect.com", "dmarc-none.com"])
              expect((yield* call("POST", "/api/scan", { domain })).status).toBe(200)
            const latest = (domain: string) =>
              Effect.gen(function* () {
                const list = yield* call("GET", `/api/history/${domain}`)
                const seq = list.json.entries.at(-1).seq
                return decodeScan((yield* call("GET", `/api/history/${domain}/${seq}`)).json.scan)
              })
            const before = yield* latest("perfect.com")
            const after = { ...(yield* latest("dmarc-none.com")), domain: toDomain("perfect.com") }
            const changes = diffScans(before, after)
            expect(changes.find((c) => c.id === "record/dmarc-policy")).toMatchObject({
              before: "reject",
              after: "none",
              severity: "high",
              summary: "DMARC policy went from reject to none."
            })
            expect(changes.find((c) => c.kind === "grade")).toMatchObject({ before: "A+", after: "D" })
            expect(changes.map((c) => c.id)).toContain("issue/dmarc_policy_none")
          })
      )
    }
  )
})
