/**
 * Snapshots of the Everything Report (docs/reports.md), as a service over the store: what a
 * snapshot holds, how it is logged, and how a stored one is represented (as stored, or as markdown
 * rendered from the decoded report), with its validator.
 *
 * - The 201 is sent only after the snapshot's transaction committed (SnapshotStore.create).
 * - A new snapshot's evidence carries the service's signature (SigningKey.ts) over its content; a
 *   reused one keeps what it was stored with.
 * - Stored bytes are served as stored; the markdown form is rendered from them after decoding them
 *   with the report's Schema, so it reads the same typed report a live report renders from (one
 *   stored before the registry gained or lost a check too: StoredReport.ts).
 * - A snapshot that fails re-verification (or no longer decodes) is logged and refused: its bytes
 *   are never served.
 */
import { Effect, Schema } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { AppConfig } from "../Config.ts"
import { canonicalJson, etagOf } from "./Canonical.ts"
import { contentOf, encodeContent, snapshotEvidence } from "./Everything.ts"
import { renderMarkdown } from "./Markdown.ts"
import type { ReportsReceived } from "./ReceivedReports.ts"
import { formatVersion } from "./ReportSchema.ts"
import { SnapshotCorrupt, SnapshotStore, type StoredSnapshot } from "./SnapshotStore.ts"
import { SigningKey } from "./SigningKey.ts"
import { readStoredReport } from "./StoredReport.ts"
import * as M from "../observe/Metrics.ts"

const CREATED = M.labels({ outcome: "created" })
const REUSED = M.labels({ outcome: "reused" })

export type SnapshotFormat = "json" | "markdown" | undefined

/** No snapshot to serve: none with this id, or the operator removed it. */
export class SnapshotMissing extends Schema.TaggedError<SnapshotMissing>()("SnapshotMissing", {
  message: Schema.String
}) {}

/** What a response carries of a snapshot: the body, its media type and its strong validator. */
export interface SnapshotRepresentation {
  readonly body: string
  readonly contentType: string
  readonly etag: string
}

const MARKDOWN = "text/markdown; charset=utf-8"

/** The stored bytes, or the markdown rendered from the report they decode to. */
export const representation = (
  snapshot: StoredSnapshot,
  format: SnapshotFormat
): Effect.Effect<SnapshotRepresentation, SnapshotCorrupt> =>
  format === "markdown"
    ? readStoredReport(snapshot.body).pipe(
        Effect.map((report) => ({
          body: renderMarkdown(report),
          contentType: MARKDOWN,
          etag: etagOf(snapshot.contentHash, "-md")
        })),
        Effect.mapError(
          () =>
            new SnapshotCorrupt({ id: snapshot.id, reason: `does not decode as ${snapshot.formatVersion}` })
        ),
        Effect.tapError(logCorrupt)
      )
    : Effect.succeed({
        body: snapshot.body,
        contentType: "application/json",
        etag: etagOf(snapshot.contentHash)
      })

export class Snapshots extends Effect.Service<Snapshots>()("Snapshots", {
  effect: Effect.gen(function* () {
    const { snapshotDedupeMs } = yield* AppConfig
    const store = yield* SnapshotStore
    const signer = yield* SigningKey

    /**
     * A snapshot of the report of `scan` (with the reports received, when given), or the one
     * stored for the same content within `SNAPSHOT_DEDUPE_MS` (`reused`). Returns after COMMIT.
     */
    const create = Effect.fn("Snapshots.create")(function* (
      scan: ScanResult,
      base: string,
      received?: ReportsReceived
    ) {
      const content = contentOf(scan, base, received)
      const encoded = encodeContent(content)
      // The signature covers the bytes the content hash covers: one definition of the content.
      const signature = signer.sign(canonicalJson(encoded))
      const { snapshot, reused } = yield* store.create(
        {
          domain: content.domain,
          formatVersion,
          content: encoded,
          document: (s) => ({ ...encoded, evidence: { ...snapshotEvidence(content, base, s), signature } })
        },
        snapshotDedupeMs
      )
      M.snapshotWrites.unsafeUpdate(1, reused ? REUSED : CREATED)
      yield* Effect.logInfo(reused ? "snapshot reused" : "snapshot stored").pipe(
        Effect.annotateLogs({
          snapshotId: snapshot.id,
          domain: snapshot.domain,
          contentHash: snapshot.contentHash
        })
      )
      return { snapshot, reused }
    })

    /** The stored snapshot `id`, verified; a corrupt one is logged and never returned. */
    const read = Effect.fn("Snapshots.read")(
      function* (id: string) {
        const found = yield* store.get(id)
        if (found._tag === "Absent")
          return yield* new SnapshotMissing({ message: "no snapshot with this id" })
        if (found._tag === "Removed")
          return yield* new SnapshotMissing({
            message: `this snapshot was removed by the operator on ${found.removedAt} (retention exception)`
          })
        return found.snapshot
      },
      Effect.tapErrorTag("SnapshotCorrupt", logCorrupt)
    )

    return { create, read } as const
  })
}) {}

/** Why a snapshot was not served, for the operator (the client only learns that it was not). */
export const logCorrupt = (e: SnapshotCorrupt) =>
  Effect.logError("snapshot failed verification, not served").pipe(
    Effect.annotateLogs({ snapshotId: e.id, reason: e.reason })
  )
