/**
 * Handlers of the report group (docs/reports.md): the live Everything Report and its immutable
 * snapshots, whose creation, reading and representation are `report/Snapshots.ts`'s.
 *
 * - Snapshot creation is rate-limited per client (`SNAPSHOT_RATE_BURST`, `SNAPSHOT_RATE_PER_MINUTE`;
 *   429 with `Retry-After`) on top of the edge's buckets: every snapshot is kept indefinitely.
 * - A stored snapshot is served with its ETag and immutable caching (304 when the client has it).
 *   One that fails re-verification is a 500.
 * - The legacy GET /report/snapshot creates like POST and says it is deprecated (RFC 9745
 *   `Deprecation`, RFC 8288 `Link` with rel="successor-version" to the POST operation).
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { InternalError, NotFound, TooManyRequests } from "../../api/Errors.ts"
import { liveReport, snapshotReport } from "../../composite/Reports.ts"
import { renderMarkdown } from "../../report/Markdown.ts"
import type { StoredSnapshot } from "../../report/SnapshotStore.ts"
import { representation, type SnapshotFormat, Snapshots } from "../../report/Snapshots.ts"
import { metered } from "../edge/Limits.ts"
import { publicBaseUrl, storedBaseUrl } from "../edge/PublicUrl.ts"
import { requestLang } from "../pages/Respond.ts"

/** RFC 9745 §2: when GET /report/snapshot became deprecated (2026-11-23T00:00:00Z), as @epoch-seconds. */
const DEPRECATED_SINCE = "@1795392000"

const MARKDOWN = "text/markdown; charset=utf-8"

const refused = () =>
  new InternalError({ error: "this snapshot failed its integrity check and is not served" })

/** The stored bytes (or the markdown rendered from them) with the snapshot's validator. */
const snapshotResponse = (
  snapshot: StoredSnapshot,
  format: SnapshotFormat,
  status: number,
  headers: Record<string, string>
) =>
  Effect.map(representation(snapshot, format), ({ body, contentType, etag }) =>
    HttpServerResponse.text(body, { status, contentType, headers: { ETag: etag, ...headers } })
  ).pipe(Effect.catchTag("SnapshotCorrupt", () => Effect.fail(refused())))

export const ReportHandlers = HttpApiBuilder.group(Api, "report", (handlers) =>
  Effect.gen(function* () {
    const snapshots = yield* Snapshots

    const create = (
      domain: Domain,
      format: SnapshotFormat,
      extraHeaders: (base: string) => Record<string, string>
    ) =>
      metered("snapshot", (charge) =>
        Effect.gen(function* () {
          const wait = charge()
          if (wait > 0)
            return yield* Effect.fail(
              new TooManyRequests({
                error: `too many snapshots from your address; retry in ${wait} s`,
                retryAfter: wait
              })
            )
          // A snapshot never changes: its URLs come from configuration, never from the request.
          const base = yield* storedBaseUrl
          const { snapshot } = yield* snapshotReport(domain, base)
          return yield* snapshotResponse(snapshot, format, 201, {
            Location: `${base}/report/snapshot/${snapshot.id}`,
            ...extraHeaders(base)
          })
        })
      )

    return handlers
      .handle("everything", ({ urlParams }) =>
        Effect.gen(function* () {
          const report = yield* liveReport(urlParams.domain, yield* publicBaseUrl)
          if (urlParams.format !== "markdown") return report
          // The markdown is in the request's language (`?lang=`, else Accept-Language), as the pages.
          const lang = yield* requestLang
          return HttpServerResponse.text(renderMarkdown(report, lang), {
            contentType: MARKDOWN,
            headers: { "Content-Language": lang, Vary: "Accept-Language" }
          })
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
          const snapshot = yield* snapshots.read(path.snapshotId)
          const response = yield* snapshotResponse(snapshot, urlParams.format, 200, {
            "Cache-Control": "public, max-age=31536000, immutable"
          })
          const request = yield* HttpServerRequest.HttpServerRequest
          const tag = response.headers["etag"]
          return request.headers["if-none-match"] === tag
            ? HttpServerResponse.empty({ status: 304, headers: response.headers })
            : response
        }).pipe(
          Effect.catchTags({
            SnapshotMissing: (e) => Effect.fail(new NotFound({ error: e.message })),
            SnapshotCorrupt: () => Effect.fail(refused())
          })
        )
      )
  })
)
