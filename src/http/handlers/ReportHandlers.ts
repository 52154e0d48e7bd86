/**
 * Handlers of the report group (docs/reports.md): the live Everything Report and its immutable
 * snapshots.
 *
 * - Snapshot creation is rate-limited per client (`SNAPSHOT_RATE_BURST`, `SNAPSHOT_RATE_PER_MINUTE`;
 *   429 with `Retry-After`) on top of the edge's buckets: every snapshot is kept indefinitely.
 * - The 201 is sent only after the snapshot's transaction committed (SnapshotStore.create).
 * - Stored bytes are served as stored, with an ETag and immutable caching; the markdown form is
 *   rendered from them. A snapshot that fails re-verification is a 500 and an error log line.
 * - The legacy GET /report/snapshot creates like POST and says it is deprecated (RFC 9745
 *   `Deprecation`, RFC 8288 `Link` with rel="successor-version" to the POST operation).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { Api } from "../../Api.ts"
import { InternalError, NotFound, TooManyRequests } from "../../api/Errors.ts"
import { AppConfig } from "../../Config.ts"
import { etagOf } from "../../report/Canonical.ts"
import { encodeContent, everything, reportContent, snapshotEvidence } from "../../report/Everything.ts"
import { renderMarkdown } from "../../report/Markdown.ts"
import { type EverythingReport, formatVersion } from "../../report/ReportSchema.ts"
import { SnapshotStore, type StoredSnapshot } from "../../report/SnapshotStore.ts"
import { makeBuckets } from "../edge/Admission.ts"
import { clientAddress } from "../edge/ClientAddress.ts"
import { publicBaseUrl, storedBaseUrl } from "../edge/PublicUrl.ts"

type Format = "json" | "markdown" | undefined

/** RFC 9745 §2: when GET /report/snapshot became deprecated (2026-11-23T00:00:00Z), as @epoch-seconds. */
const DEPRECATED_SINCE = "@1795392000"

const MARKDOWN = "text/markdown; charset=utf-8"

/** The stored bytes (or the markdown rendered from them) with the snapshot's validators. */
const snapshotResponse = (
  snapshot: StoredSnapshot,
  format: Format,
  status: number,
  headers: Record<string, string>
) =>
  format === "markdown"
    ? HttpServerResponse.text(renderMarkdown(JSON.parse(snapshot.body) as EverythingReport), {
        status,
        contentType: MARKDOWN,
        headers: { ETag: etagOf(snapshot.contentHash, "-md"), ...headers }
      })
    : HttpServerResponse.text(snapshot.body, {
        status,
        contentType: "application/json",
        headers: { ETag: etagOf(snapshot.contentHash), ...headers }
      })

export const ReportHandlers = HttpApiBuilder.group(Api, "report", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const store = yield* SnapshotStore
    const buckets = makeBuckets({ burst: config.snapshotRateBurst, perMinute: config.snapshotRatePerMinute })

    const admit = Effect.gen(function* () {
      const wait = buckets.take(yield* clientAddress, yield* Clock.currentTimeMillis)
      if (wait > 0)
        return yield* Effect.fail(
          new TooManyRequests({
            error: `too many snapshots from your address; retry in ${wait} s`,
            retryAfter: wait
          })
        )
    })

    const create = (domain: string, format: Format, extraHeaders: (base: string) => Record<string, string>) =>
      Effect.gen(function* () {
        yield* admit
        // A snapshot never changes: its URLs come from configuration, never from the request.
        const base = yield* storedBaseUrl
        const content = yield* reportContent(domain, base)
        const encoded = encodeContent(content)
        const { snapshot, reused } = yield* store.create(
          {
            domain: content.domain,
            formatVersion,
            content: encoded,
            document: (s) => ({ ...encoded, evidence: snapshotEvidence(content, base, s) })
          },
          config.snapshotDedupeMs
        )
        yield* Effect.logInfo(reused ? "snapshot reused" : "snapshot stored").pipe(
          Effect.annotateLogs({
            snapshotId: snapshot.id,
            domain: snapshot.domain,
            contentHash: snapshot.contentHash
          })
        )
        return snapshotResponse(snapshot, format, 201, {
          Location: `${base}/report/snapshot/${snapshot.id}`,
          ...extraHeaders(base)
        })
      })

    return handlers
      .handle("everything", ({ urlParams }) =>
        Effect.gen(function* () {
          const report = yield* everything(urlParams.domain, yield* publicBaseUrl)
          return urlParams.format === "markdown"
            ? HttpServerResponse.text(renderMarkdown(report), { contentType: MARKDOWN })
            : report
        })
      )
      .handle("snapshotCreate", ({ urlParams }) => create(urlParams.domain, urlParams.format, () => ({})))
      .handle("snapshotCreateLegacy", ({ urlParams }) =>
        create(urlParams.domain, urlParams.format, (base) => ({
          Deprecation: DEPRECATED_SINCE,
          Link: `<${base}/report/snapshot?domain=${encodeURIComponent(urlParams.domain)}>; rel="successor-version"; type="application/json"; title="POST /report/snapshot"`
        }))
      )
      .handle("snapshotGet", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const found = yield* store.get(path.snapshotId)
          if (found._tag === "Absent")
            return yield* Effect.fail(new NotFound({ error: "no snapshot with this id" }))
          if (found._tag === "Removed")
            return yield* Effect.fail(
              new NotFound({
                error: `this snapshot was removed by the operator on ${found.removedAt} (retention exception)`
              })
            )
          const response = snapshotResponse(found.snapshot, urlParams.format, 200, {
            "Cache-Control": "public, max-age=31536000, immutable"
          })
          const request = yield* HttpServerRequest.HttpServerRequest
          const tag = response.headers["etag"]
          return request.headers["if-none-match"] === tag
            ? HttpServerResponse.empty({ status: 304, headers: response.headers })
            : response
        }).pipe(
          Effect.catchTag("SnapshotCorrupt", (e) =>
            Effect.zipRight(
              Effect.logError("snapshot failed verification, not served").pipe(
                Effect.annotateLogs({ snapshotId: e.id, reason: e.reason })
              ),
              Effect.fail(
                new InternalError({ error: "this snapshot failed its integrity check and is not served" })
              )
            )
          )
        )
      )
  })
)
