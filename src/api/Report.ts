/**
 * The report group: the Everything Report, live and as immutable snapshots. The report's Schema is
 * declared by report/ReportSchema.ts (docs/reports.md).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { EverythingReport } from "../report/ReportSchema.ts"
import { DomainFormatQuery, Format } from "./Common.ts"
import { BadRequest, NotFound, TooManyRequests } from "./Errors.ts"
import { cheap } from "./Cost.ts"

const markdownNote = " With format=markdown the same report is returned as text/markdown."
const languageNote =
  " The markdown is in Dutch with lang=nl, or when Accept-Language prefers Dutch (lang= wins); else English."

export class ReportApi extends HttpApiGroup.make("report")
  .add(
    HttpApiEndpoint.get("everything", "/report/everything")
      .annotate(OpenApi.Summary, "The Everything Report of a domain")
      .setUrlParams(DomainFormatQuery)
      .addSuccess(EverythingReport)
      .addError(BadRequest)
      .annotate(OpenApi.Description, "The Everything Report, generated live." + markdownNote + languageNote)
  )
  .add(
    HttpApiEndpoint.post("snapshotCreate", "/report/snapshot")
      .annotate(OpenApi.Summary, "Store a report snapshot")
      .setUrlParams(DomainFormatQuery)
      .addSuccess(EverythingReport, { status: 201 })
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(
        OpenApi.Description,
        "Store an immutable, content-hashed snapshot of the report." + markdownNote
      )
  )
  .add(
    HttpApiEndpoint.get("snapshotCreateLegacy", "/report/snapshot")
      .annotate(OpenApi.Summary, "Store a report snapshot (deprecated GET form)")
      .setUrlParams(DomainFormatQuery)
      .addSuccess(EverythingReport, { status: 201 })
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Description, "Deprecated: use POST /report/snapshot." + markdownNote)
  )
  .add(
    HttpApiEndpoint.get("snapshotGet", "/report/snapshot/:snapshotId")
      .annotateContext(cheap)
      .annotate(OpenApi.Summary, "A stored report snapshot")
      .setPath(Schema.Struct({ snapshotId: Schema.String.pipe(Schema.maxLength(128)) }))
      .setUrlParams(Schema.Struct({ format: Schema.optional(Format) }))
      .addSuccess(EverythingReport)
      .addError(NotFound)
      .addError(BadRequest)
      .annotate(
        OpenApi.Description,
        "A stored snapshot, byte for byte as stored (re-verified against its content hash), with an ETag and immutable caching." +
          markdownNote
      )
  ) {}
