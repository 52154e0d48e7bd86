/**
 * How a stored snapshot is represented: its bytes as stored, or markdown rendered from the report
 * they decode to (with its own validator); bytes that do not decode are refused, never rendered.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, FastCheck, Schema } from "effect"
import { canonicalJson, etagOf } from "../../src/report/Canonical.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import type { StoredSnapshot } from "../../src/report/SnapshotStore.ts"
import { representation } from "../../src/report/Snapshots.ts"
import { runs } from "../support/runs.ts"

const stored = (body: string): StoredSnapshot => ({
  id: "00000000-0000-4000-8000-000000000000",
  domain: "example.com",
  contentHash: "ab".repeat(32),
  formatVersion: "everything-report/1",
  createdAt: "2026-01-01T00:00:00.000Z",
  body
})

describe("representation", () => {
  it("serves the stored bytes as they are, and markdown rendered from the decoded report", () =>
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(EverythingReport), (report) => {
        const snapshot = stored(canonicalJson(Schema.encodeSync(EverythingReport)(report)))
        const json = Effect.runSync(representation(snapshot, "json"))
        expect(json).toEqual({
          body: snapshot.body,
          contentType: "application/json",
          etag: etagOf(snapshot.contentHash)
        })
        const markdown = Effect.runSync(representation(snapshot, "markdown"))
        expect(markdown.body).toBe(
          renderMarkdown(Schema.decodeUnknownSync(EverythingReport)(JSON.parse(snapshot.body)))
        )
        expect(markdown.etag).toBe(etagOf(snapshot.contentHash, "-md"))
        expect(markdown.contentType).toBe("text/markdown; charset=utf-8")
      }),
      { numRuns: runs(10) }
    ))

  it.effect("refuses to render bytes that are not a report", () =>
    Effect.gen(function* () {
      for (const body of ["{}", "not json", JSON.stringify({ domain: 1 })]) {
        const exit = yield* Effect.exit(representation(stored(body), "markdown"))
        expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("SnapshotCorrupt")
      }
    })
  )
})
