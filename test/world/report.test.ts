/**
 * The Everything Report and its snapshots in the world: perfect.com's report has every
 * section in both formats; a snapshot reads back byte-identical and its hash is recomputed here
 * from the canonical JSON; an unknown id is 404; the legacy GET says it is deprecated; the database
 * refuses an UPDATE of a stored snapshot.
 */
import { createHash } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import canonicalize from "canonicalize"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { concerns } from "../../src/report/Sections.ts"
import { call, testApp } from "../http/harness.ts"
import { withDb } from "../report/db.ts"
import { worldEnv } from "./env.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-report-"))
/**
 * The first report of a layer runs a cold full scan: when the world's MTAs are slow, its SMTP probes
 * run to their own timeouts, within SCAN_DEADLINE_MS (30 s). Room for that, not a time assertion.
 */
const COLD_SCAN_MS = 120_000
const SECTIONS = [...concerns.map((c) => c.key), "nis2"]

const recomputedHash = (body: string) => {
  const { evidence: _, ...content } = JSON.parse(body)
  return `sha256:${createHash("sha256").update(canonicalize(content)!, "utf8").digest("hex")}`
}

/** Sections whose check reads a source this test does not configure (docs/dependencies.md). */
const SOURCE_OFF: ReadonlyArray<string> = ["registration", "rpki"]

describe("the Everything Report in the world", () => {
  layer(testApp({ ...worldEnv(), SNAPSHOT_DEDUPE_MS: "0" }, dataDir), {
    timeout: 180_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "perfect.com as JSON has every section, citations, typed results and the evidence block",
      () =>
        Effect.gen(function* () {
          const r = yield* call("GET", "/api/report/everything?domain=perfect.com")
          expect(r.status).toBe(200)
          const report = r.json
          expect(Object.keys(report.sections).sort()).toEqual([...SECTIONS].sort())
          expect(report).toMatchObject({ domain: "perfect.com", formatVersion: "everything-report/1" })
          // The report is the score of the same (cached) scan: same grade, and every issue in one section.
          const quick = (yield* call("GET", "/api/scan/quick?domain=perfect.com")).json
          expect(report.summary).toMatchObject({ grade: quick.grade, percentage: quick.percentage })
          expect(report.sections.quickScore.recommendations).toEqual(quick.recommendations)
          const placed = SECTIONS.filter((k) => k !== "nis2").flatMap((k) =>
            report.sections[k].findings.map((f: any) => f.issueId)
          )
          expect(placed.sort()).toEqual(quick.issues.map((i: any) => i.id).sort())
          expect(report.summary.sections.map((s: any) => s.key)).toEqual(SECTIONS.filter((k) => k !== "nis2"))
          expect(report.reportUrl).toMatch(/\/api\/report\/everything\?domain=perfect\.com$/)
          for (const key of SECTIONS.filter((k) => k !== "quickScore" && k !== "nis2")) {
            const section = report.sections[key]
            // registration and RPKI need a source the service is not given here (RDAP_BOOTSTRAP,
            // RPKI_VRPS): unknown or not applicable, never a failure
            const allowed = SOURCE_OFF.includes(key)
              ? ["unknown", "not-applicable"]
              : ["pass", "partial", "fail", "not-applicable"]
            expect(allowed, key).toContain(section.status)
            if (section.status === "pass") expect(section.findings, key).toEqual([])
            expect(section.sources.length, key).toBeGreaterThan(0)
            for (const f of section.findings) {
              expect(f.citations.length, f.issueId).toBeGreaterThan(0)
              for (const c of f.citations) expect(report.citations.map((x: any) => x.id)).toContain(c)
            }
          }
          // perfect.com publishes SPF, DKIM, DMARC, MTA-STS and DNSSEC correctly
          for (const key of ["dnsRecords", "dnssec", "spf", "dkim", "dmarc", "mtaSts", "webSecurity"])
            expect(report.sections[key].status, key).toBe("pass")
          expect(report.sections.spf.lookupGraph).not.toBeNull()
          expect(report.sections.spf.flattening.advice.length).toBeGreaterThan(0)
          expect(report.citations.map((c: any) => c.id)).toContain("rfc7208")
          expect(Object.keys(report.machineReadable.scan.checks)).toContain("smtp-tls")
          // NIS2 is the scorecard of the same scan, as GET /scan/nis2 serves it (less its cached flag)
          const { cached: _cached, ...nis2 } = (yield* call("GET", "/api/scan/nis2?domain=perfect.com")).json
          expect(report.sections.nis2).toEqual(nis2)
          expect(report.evidence).toMatchObject({
            snapshotId: "",
            retentionPolicy: "indefinite",
            formatVersion: "everything-report/1"
          })
          expect(report.evidence.snapshotCreateUrl).toMatch(/\/api\/report\/snapshot\?domain=perfect\.com$/)
          expect(report.evidence.contentHash).toBe(
            `sha256:${createHash("sha256")
              .update(canonicalize({ ...report, evidence: undefined })!, "utf8")
              .digest("hex")}`
          )
        }),
      COLD_SCAN_MS
    )

    it.effect("perfect.com as markdown: the summary table, then one heading per section", () =>
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/report/everything?domain=perfect.com&format=markdown")
        expect(r.status).toBe(200)
        expect(r.type).toMatch(/^text\/markdown/)
        expect(r.text.startsWith("# Everything Report: perfect.com\n")).toBe(true)
        expect(r.text).toContain("| Section | Status | Findings |")
        for (const c of concerns) expect(r.text).toContain(`\n## ${c.title}\n`)
        expect(r.text).toContain("**Lookup graph**")
        expect(r.text).toContain("\n## NIS2 readiness\n")
        expect(r.text).toContain("| Measure | Status | Score | Weight |")
        expect(r.text).toContain("## Sources")
      })
    )

    it.effect("an unknown format is a 400 with an error body", () =>
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/report/everything?domain=perfect.com&format=pdf")
        expect(r.status).toBe(400)
        expect(typeof r.json.error).toBe("string")
      })
    )

    it.effect("a snapshot reads back byte-identical, and its hash is the canonical JSON's", () =>
      Effect.gen(function* () {
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        expect(created.status).toBe(201)
        const evidence = created.json.evidence
        expect(evidence.snapshotId).toMatch(/^[0-9a-f-]{36}$/)
        expect(evidence.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/)
        expect(evidence.contentHash).toBe(recomputedHash(created.text))
        expect(evidence.snapshotUrl).toMatch(new RegExp(`/api/report/snapshot/${evidence.snapshotId}$`))
        expect(created.headers["location"]).toBe(evidence.snapshotUrl)
        expect(created.text).toBe(canonicalize(JSON.parse(created.text)))

        const read = yield* call("GET", `/api/report/snapshot/${evidence.snapshotId}`)
        expect(read.status).toBe(200)
        expect(read.text).toBe(created.text)
        expect(read.headers["etag"]).toBe(`"${evidence.contentHash.replace(":", "-")}"`)
        expect(read.headers["cache-control"]).toContain("immutable")

        const again = yield* call("GET", `/api/report/snapshot/${evidence.snapshotId}`, undefined, {
          "If-None-Match": read.headers["etag"]!
        })
        expect(again.status).toBe(304)

        const md1 = yield* call("GET", `/api/report/snapshot/${evidence.snapshotId}?format=markdown`)
        const md2 = yield* call("GET", `/api/report/snapshot/${evidence.snapshotId}?format=markdown`)
        expect(md1.status).toBe(200)
        expect(md1.type).toMatch(/^text\/markdown/)
        expect(md1.text).toBe(md2.text)
        expect(md1.text).toContain(evidence.contentHash)
        expect(md1.text).toContain(evidence.snapshotUrl)
      })
    )

    it.effect("an unknown snapshot id is a 404 with an error body", () =>
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/report/snapshot/00000000-0000-4000-8000-000000000000")
        expect(r.status).toBe(404)
        expect(typeof r.json.error).toBe("string")
      })
    )

    it.effect("the legacy GET creates a snapshot and carries Deprecation and Link (RFC 9745)", () =>
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/report/snapshot?domain=perfect.com")
        expect(r.status).toBe(201)
        expect(r.headers["deprecation"]).toMatch(/^@\d+$/)
        expect(r.headers["link"]).toMatch(
          /^<[^>]*\/api\/report\/snapshot\?domain=perfect\.com>;.*rel="successor-version"/
        )
        const read = yield* call("GET", `/api/report/snapshot/${r.json.evidence.snapshotId}`)
        expect(read.text).toBe(r.text)
      })
    )

    it.effect("the database refuses an UPDATE (and an unlogged DELETE) of a stored snapshot", () =>
      Effect.gen(function* () {
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        const id = created.json.evidence.snapshotId
        const refusals = yield* withDb(join(dataDir, "domain-audit.sqlite"), (sql) =>
          Effect.all([
            Effect.flip(sql`UPDATE report_snapshot SET body = ${Buffer.from("{}")} WHERE id = ${id}`),
            Effect.flip(sql`UPDATE report_snapshot SET domain = 'evil.com' WHERE id = ${id}`),
            Effect.flip(sql`DELETE FROM report_snapshot WHERE id = ${id}`)
          ])
        )
        for (const refusal of refusals) expect(String(refusal.cause)).toMatch(/immutable/)
        const read = yield* call("GET", `/api/report/snapshot/${id}`)
        expect(read.text).toBe(created.text)
      })
    )
  })
})

describe("snapshot abuse protection in the world", () => {
  layer(testApp({ ...worldEnv(), SNAPSHOT_RATE_BURST: "2", SNAPSHOT_RATE_PER_MINUTE: "1" }), {
    timeout: 180_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "the same report within the window returns the existing snapshot; a burst gets 429 + Retry-After",
      () =>
        Effect.gen(function* () {
          const first = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
          const second = yield* call("POST", "/api/report/snapshot?domain=perfect.com&format=markdown")
          expect(first.status).toBe(201)
          expect(second.status).toBe(201)
          expect(second.type).toMatch(/^text\/markdown/)
          // one scan (cached) gives identical content: the stored snapshot is returned, not a copy
          expect(second.text).toContain(first.json.evidence.snapshotId)
          const third = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
          expect(third.status).toBe(429)
          expect(Number(third.headers["retry-after"])).toBeGreaterThan(0)
          expect(typeof third.json.error).toBe("string")
          // reading is not creating: GET of the stored snapshot is not limited by the snapshot bucket
          const read = yield* call("GET", `/api/report/snapshot/${first.json.evidence.snapshotId}`)
          expect(read.status).toBe(200)
        }),
      COLD_SCAN_MS
    )
  })
})
