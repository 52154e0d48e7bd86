/**
 * The report endpoints with no network (every resolver is a closed port): the report still comes,
 * with the unfinished concerns marked, and a snapshot whose stored bytes were altered behind the
 * service's back is refused with a 500 {error}, never served.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { withDb } from "../report/db.ts"
import { call, testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-report-http-"))

describe("report endpoints without network", () => {
  // A closed port usually refuses at once (ICMP port unreachable), but the kernel rate-limits
  // those messages, and a question left unanswered waits DNS_TIMEOUT_MS a try: short enough that
  // every question has failed, not merely not finished, within the scan's deadline.
  layer(testApp({ SCAN_DEADLINE_MS: "3000", DNS_TIMEOUT_MS: "500" }, dataDir), {
    timeout: 60_000,
    excludeTestServices: true
  })((it) => {
    it.effect("the report of an unreachable domain says what could not be judged, in both formats", () =>
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/report/everything?domain=perfect.com")
        expect(r.status).toBe(200)
        expect(r.json.domain).toBe("perfect.com")
        // nothing answered: nothing is judged missing or failed, the headline says so
        for (const row of r.json.summary.sections) expect(["unknown", "not-applicable"]).toContain(row.status)
        expect(r.json.summary.sections[0]).toMatchObject({ key: "quickScore", status: "unknown" })
        expect(r.json.summary.headline).toMatch(
          /could not be graded: no DNS question about perfect\.com was answered/
        )
        expect(r.json.summary.unscannable).toBe("no DNS question about perfect.com was answered")
        const md = yield* call("GET", "/api/report/everything?domain=perfect.com&format=markdown")
        expect(md.status).toBe(200)
        expect(md.text).toContain("# Everything Report: perfect.com")
      })
    )

    it.effect("invalid input is a 400 {error}", () =>
      Effect.gen(function* () {
        for (const url of [
          "/api/report/everything",
          "/api/report/everything?domain=localhost",
          "/api/report/snapshot/abc?format=html"
        ]) {
          const r = yield* call("GET", url)
          expect([url, r.status, typeof r.json?.error]).toEqual([url, 400, "string"])
        }
        const post = yield* call("POST", "/api/report/snapshot?domain=perfect.com&format=xml")
        expect(post.status).toBe(400)
      })
    )

    it.effect("a tampered snapshot is a 500 {error}, not the altered bytes", () =>
      Effect.gen(function* () {
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        expect(created.status).toBe(201)
        // snapshots have a limit of their own (5 at once, 2 a minute), advertised beside the edge's
        expect(created.headers["ratelimit-policy"]).toMatch(/^"costly";q=\d+;w=\d+, "snapshot";q=5;w=150$/)
        expect(created.headers["ratelimit"]).toMatch(/, "snapshot";r=4;t=30$/)
        const id = created.json.evidence.snapshotId
        const altered = created.text.replace('"domain":"perfect.com"', '"domain":"perfekt.com"')
        expect(altered).not.toBe(created.text)
        yield* withDb(join(dataDir, "domain-audit.sqlite"), (sql) =>
          Effect.gen(function* () {
            yield* sql`DROP TRIGGER report_snapshot_no_update`
            yield* sql`UPDATE report_snapshot SET body = ${Buffer.from(altered)} WHERE id = ${id}`
          })
        )
        for (const format of ["json", "markdown"]) {
          const r = yield* call("GET", `/api/report/snapshot/${id}?format=${format}`)
          expect(r.status).toBe(500)
          expect(r.json).toEqual({ error: "this snapshot failed its integrity check and is not served" })
        }
      })
    )
  })
})
