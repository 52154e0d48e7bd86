/**
 * Snapshots kept across changes of the registry, over a real SQLite file (no network): one stored
 * by a service that did not have the DNSSEC check yet, one by a service that had the toy check.
 * Today's registry serves their bytes as stored and renders their page, markdown and PDF.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { Registered } from "../../src/kernel/Check.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { NOT_CHECKED } from "../../src/scan/StoredScan.ts"
import { snapshotPage } from "../../src/pages/SnapshotPage.ts"
import { contentHashOf } from "../../src/report/Canonical.ts"
import { buildContent, snapshotEvidence } from "../../src/report/Everything.ts"
import { formatVersion, reportContentSchema } from "../../src/report/ReportSchema.ts"
import { snapshotPdf } from "../../src/report/ScanPdf.ts"
import { SnapshotStore } from "../../src/report/SnapshotStore.ts"
import { representation } from "../../src/report/Snapshots.ts"
import { readStoredReport } from "../../src/report/StoredReport.ts"
import { score } from "../../src/score/Score.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { without, withToy } from "../fixtures/registries.ts"
import { toyRegistry } from "../fixtures/toy/registry.ts"
import { storedScan } from "../monitor/scans.ts"
import { pdfText } from "./pdfText.ts"

const BASE = "http://localhost/api"

/** Store the snapshot a service whose registry was `checks` made of `scan` (Snapshots.create's steps). */
const snapshotAs = (checks: ReadonlyArray<Registered>, scan: ScanResult) =>
  Effect.gen(function* () {
    const content = buildContent(scan, score(scan, checks), BASE, checks)
    const encoded = Schema.encodeSync(
      reportContentSchema(checks) as unknown as Schema.Schema<object, object>
    )(content)
    const { snapshot } = yield* (yield* SnapshotStore).create(
      {
        domain: content.domain,
        formatVersion,
        content: encoded,
        document: (s) => ({ ...encoded, evidence: snapshotEvidence(content, BASE, s) })
      },
      0
    )
    return snapshot
  })

/** Read back as the page and PDF handlers do: verified by the store, then read by today's registry. */
const readBack = (id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* SnapshotStore).get(id)
    if (found._tag !== "Found") throw new Error(`snapshot ${id}: ${found._tag}`)
    const report = yield* readStoredReport(found.snapshot.body)
    const markdown = (yield* representation(found.snapshot, "markdown")).body
    const json = (yield* representation(found.snapshot, "json")).body
    const page = snapshotPage(report, "en").markup
    const pdf = yield* Effect.promise(() => Effect.runPromise(snapshotPdf(report)).then(pdfText))
    return { snapshot: found.snapshot, report, markdown, json, page, pdf }
  })

const run = <A, E>(effect: Effect.Effect<A, E, SnapshotStore>) =>
  Effect.runPromise(
    Effect.provide(
      effect,
      SnapshotStore.Default.pipe(
        Layer.provide(sqliteAt(join(mkdtempSync(join(tmpdir(), "snapshot-compat-")), "domain-audit.sqlite")))
      )
    )
  )

describe("a snapshot across changes of the registry", () => {
  it("stored before a check was added: served as stored, shown without that check", () =>
    run(
      Effect.gen(function* () {
        const stored = yield* snapshotAs(without("dnssec"), storedScan("dmarc-none.com"))
        const { snapshot, report, markdown, json, page, pdf } = yield* readBack(stored.id)
        // The bytes as stored, still hashing to the stored hash.
        expect(json).toBe(stored.body)
        const { evidence: _, ...content } = JSON.parse(json)
        expect(contentHashOf(content)).toBe(snapshot.contentHash)
        expect(Object.keys(content.sections)).not.toContain("dnssec")
        // Read: no DNSSEC section anywhere, the check not checked then (not failed, not missing).
        expect(Object.keys(report.sections)).not.toContain("dnssec")
        expect(report.machineReadable.scan.checks.dnssec).toMatchObject({
          status: "unknown",
          reason: NOT_CHECKED
        })
        expect(markdown).toMatch(/^## DMARC$/m)
        expect(markdown).not.toMatch(/^## DNSSEC$/m)
        expect(page).toContain(snapshot.id)
        expect(page).toContain('id="sec-dmarc"')
        expect(page).not.toContain('id="sec-dnssec"')
        expect(pdf).toContain(snapshot.id)
        expect(pdf).toContain("DMARC policy is none")
      })
    ))

  it("stored by a service with a check since removed: its section is still shown", () =>
    run(
      Effect.gen(function* () {
        const stored = yield* snapshotAs(toyRegistry, withToy(storedScan("perfect.com")) as ScanResult)
        const { report, markdown, json, page, pdf } = yield* readBack(stored.id)
        expect(json).toBe(stored.body)
        expect(JSON.parse(json).machineReadable.scan.checks.toy).toMatchObject({ id: "toy" })
        const sections = report.sections as unknown as Record<string, { title: string; status: string }>
        expect(sections["toy"]).toMatchObject({ title: "Toy verification", status: "fail" })
        expect(Object.keys(sections).at(-1)).toBe("nis2")
        expect(markdown).toMatch(/^## Toy verification$/m)
        expect(page).toContain('id="sec-toy"')
        // The PDF draws the score the snapshot stored: the toy's issue is in it.
        expect(pdf).toContain("No toy verification token")
      })
    ))
})
