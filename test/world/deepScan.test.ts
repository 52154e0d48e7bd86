/**
 * POST /scan/deep and GET /scan/deep/{scan_id} against the world, in process: a job goes running ->
 * completed with the full result; a dead MX completes with its parts unknown; the same request
 * within the reuse window returns the same job; a client over its deep-scan limit gets 429.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MAIL_CHECKS } from "../../src/jobs/DeepScan.ts"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const env = {
  ...worldEnv(),
  SMTP_BANNER_TIMEOUT_MS: "2000",
  // a stalled world ends a test as unknown parts within its timeout, not as a hang
  DEEP_SCAN_DEADLINE_MS: "25000",
  DEEP_SCAN_BURST: "4",
  DEEP_SCAN_PER_HOUR: "1"
}

const submit = (domain: string, type: string) => call("POST", "/api/scan/deep", { domain, type })

/** Poll until the job leaves `running`, remembering every status seen. */
const settle = (scanId: string) =>
  Effect.gen(function* () {
    const seen: Array<string> = []
    for (let i = 0; i < 240; i++) {
      const r = yield* call("GET", `/api/scan/deep/${scanId}`)
      expect(r.status).toBe(200)
      if (seen.at(-1) !== r.json.status) seen.push(r.json.status)
      if (r.json.status !== "running") return { state: r.json, seen }
      yield* Effect.sleep("250 millis")
    }
    throw new Error(`${scanId} still running`)
  })

describe("deep scans in the world", () => {
  layer(testApp(env), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect(
      "perfect.com mail: 202 running, then completed with every mail check at full depth",
      () =>
        Effect.gen(function* () {
          const r = yield* submit("perfect.com", "mail")
          expect(r.status).toBe(202)
          expect(r.json).toMatchObject({ success: true, status: "running" })
          expect(r.json.scan_id).toMatch(/^[0-9a-f]{16,}$/)
          // the job's URL, to poll (RFC 9110 §15.3.3)
          expect(new URL(r.headers["location"]!).pathname).toBe(`/api/scan/deep/${r.json.scan_id}`)
          expect(r.headers["ratelimit-policy"]).toMatch(/^"costly";q=\d+;w=\d+, "deep-scan";q=4;w=\d+$/)
          expect(r.headers["ratelimit"]).toMatch(/^"costly";r=\d+;t=\d+, "deep-scan";r=3;t=\d+$/)
          expect(Number.isInteger(r.json.estimated_time) && r.json.estimated_time > 0).toBe(true)
          const { state, seen } = yield* settle(r.json.scan_id)
          expect(seen).toEqual(["running", "completed"])
          expect(state).toMatchObject({
            domain: "perfect.com",
            type: "mail",
            status: "completed",
            error: null
          })
          const checks = state.result.scan.checks
          expect(Object.keys(checks).sort()).toEqual(MAIL_CHECKS.map((c) => c.id).sort())
          for (const c of Object.values<any>(checks)) expect(c.status).toBe("done")
          // all known selectors asked: both of perfect.com's keys found
          expect([...checks.dkim.result.selectors_found].sort()).toEqual(["ed25519", "selector1"])
          // every MX address probed: mx.perfect.com has an A and an AAAA
          expect(checks["smtp-tls"].result.servers.map((s: any) => s.ip).sort()).toEqual([
            "127.25.0.1",
            "::1"
          ])
          // the same request within the reuse window is the same job, already completed
          const again = yield* submit("PERFECT.com", "mail")
          expect(again.status).toBe(202)
          expect(again.json).toMatchObject({
            scan_id: r.json.scan_id,
            status: "completed",
            estimated_time: 0
          })
        }),
      60_000
    )

    it.effect(
      "perfect.com web: headers over HTTPS and the CSP crawl",
      () =>
        Effect.gen(function* () {
          const r = yield* submit("perfect.com", "web")
          expect(r.status).toBe(202)
          const { state } = yield* settle(r.json.scan_id)
          expect(state.status).toBe("completed")
          const headers = state.result.scan.checks.headers
          expect(headers.status).toBe("done")
          expect(headers.result.httpsAvailable).toBe(true)
          expect(state.result.csp.status).toBe("done")
          expect(state.result.csp.result.pagesCrawled).toBeGreaterThan(0)
        }),
      60_000
    )

    it.effect(
      "mx-slow.com: its silent MX leaves those parts unknown, the job still completes",
      () =>
        Effect.gen(function* () {
          const r = yield* submit("mx-slow.com", "mail")
          const { state } = yield* settle(r.json.scan_id)
          expect(state.status).toBe("completed")
          const smtp = state.result.scan.checks["smtp-tls"]
          expect(smtp.result.servers).toHaveLength(1)
          expect(smtp.result.servers[0]).toMatchObject({ ip: "127.25.0.15", status: "unknown" })
          // what does not depend on the MX answering is known
          expect(state.result.scan.checks.spf.status).toBe("done")
        }),
      60_000
    )

    it.effect(
      "unknown id 404, bad type 400, over the limit 429 with Retry-After; reuse stays free",
      () =>
        Effect.gen(function* () {
          expect((yield* call("GET", "/api/scan/deep/0123456789abcdef")).status).toBe(404)
          const bad = yield* submit("perfect.com", "dns")
          expect(bad.status).toBe(400)
          expect(typeof bad.json.error).toBe("string")
          // burst 4: three jobs above plus one more; the next new job is refused
          expect((yield* submit("unsigned.net", "mail")).status).toBe(202)
          const refused = yield* submit("nomx.net", "mail")
          expect(refused.status).toBe(429)
          expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
          expect(refused.json.error).toMatch(/deep scans/)
          // RateLimit's reset is the Retry-After of the refusal
          expect(refused.headers["ratelimit"]).toMatch(
            new RegExp(`"deep-scan";r=0;t=${refused.headers["retry-after"]}$`)
          )
          expect((yield* submit("perfect.com", "mail")).status).toBe(202)
        }),
      60_000
    )
  })
})
