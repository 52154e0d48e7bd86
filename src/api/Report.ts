/** The report group: the Everything Report, live and as immutable snapshots. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DateTime, DomainFormatQuery, Format, Open } from "./Common.ts"
import { BadRequest, NotFound, TooManyRequests } from "./Errors.ts"

export const Evidence = Schema.Struct({
  liveReportUrl: Schema.String,
  snapshotCreateUrl: Schema.String,
  snapshotUrl: Schema.String,
  snapshotMarkdownUrl: Schema.String,
  snapshotId: Schema.String,
  contentHash: Schema.String,
  formatVersion: Schema.String,
  retentionPolicy: Schema.Literal("indefinite"),
  retentionNotice: Schema.String
})

export const EverythingReport = Schema.Struct({
  domain: Schema.String,
  generatedAt: DateTime,
  reportUrl: Schema.String,
  summary: Open,
  sections: Open,
  citations: Schema.Array(Open),
  machineReadable: Open,
  evidence: Evidence
})

const markdownNote = " With format=markdown the same report is returned as text/markdown."

export class ReportApi extends HttpApiGroup.make("report")
  .add(
    HttpApiEndpoint.get("everything", "/report/everything")
      .setUrlParams(DomainFormatQuery)
      .addSuccess(EverythingReport)
      .addError(BadRequest)
      .annotate(OpenApi.Description, "The Everything Report, generated live." + markdownNote)
  )
  .add(
    HttpApiEndpoint.post("snapshotCreate", "/report/snapshot")
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
      .setUrlParams(DomainFormatQuery)
      .addSuccess(EverythingReport, { status: 201 })
      .addError(BadRequest)
      .addError(TooManyRequests)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Description, "Deprecated: use POST /report/snapshot." + markdownNote)
  )
  .add(
    HttpApiEndpoint.get("snapshotGet", "/report/snapshot/:snapshotId")
      .setPath(Schema.Struct({ snapshotId: Schema.String.pipe(Schema.maxLength(128)) }))
      .setUrlParams(Schema.Struct({ format: Schema.optional(Format) }))
      .addSuccess(EverythingReport)
      .addError(NotFound)
      .addError(BadRequest)
  ) {}
