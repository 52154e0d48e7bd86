/**
 * The report group: the Everything Report, live and as immutable snapshots. The report's Schema is
 * declared by report/ReportSchema.ts (docs/reports.md).
 */
import { type HttpApiEndpoint, type HttpMethod, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { EverythingReport } from "../report/ReportSchema.ts"
import { DomainFormatQuery, Format } from "./Common.ts"
import { BadRequest, NotFound, TooManyRequests } from "./Errors.ts"
import { cheap } from "./Cost.ts"
import { Endpoint } from "./Docs.ts"

const markdownNote = " With format=markdown the same report is returned as text/markdown."
const languageNote =
  " The markdown is in Dutch with lang=nl, or when Accept-Language prefers Dutch (lang= wins); else English."

/** Storing a snapshot: POST /report/snapshot and its deprecated GET form, one operation. */
const storesSnapshot = <Name extends string, Method extends HttpMethod.HttpMethod>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method>
) =>
  endpoint
    .setUrlParams(DomainFormatQuery)
    .addSuccess(EverythingReport, { status: 201 })
    .addError(BadRequest)
    .addError(TooManyRequests)

const everything = Endpoint.get("everything", "/report/everything", {
  summary: "The Everything Report of a domain",
  description: "The Everything Report, generated live." + markdownNote + languageNote
})
  .setUrlParams(DomainFormatQuery)
  .addSuccess(EverythingReport)
  .addError(BadRequest)

const snapshotCreate = Endpoint.post("snapshotCreate", "/report/snapshot", {
  summary: "Store a report snapshot",
  description: "Store an immutable, content-hashed snapshot of the report." + markdownNote
}).pipe(storesSnapshot)

const snapshotCreateLegacy = Endpoint.get("snapshotCreateLegacy", "/report/snapshot", {
  summary: "Store a report snapshot (deprecated GET form)",
  description: "Deprecated: use POST /report/snapshot." + markdownNote,
  deprecated: true
}).pipe(storesSnapshot)

const snapshotGet = Endpoint.get("snapshotGet", "/report/snapshot/:snapshotId", {
  summary: "A stored report snapshot",
  description:
    "A stored snapshot, byte for byte as stored (re-verified against its content hash), with an ETag and immutable caching." +
    markdownNote
})
  .annotateContext(cheap)
  .setPath(Schema.Struct({ snapshotId: Schema.String.pipe(Schema.maxLength(128)) }))
  .setUrlParams(Schema.Struct({ format: Schema.optional(Format) }))
  .addSuccess(EverythingReport)
  .addError(NotFound)
  .addError(BadRequest)

export class ReportApi extends HttpApiGroup.make("report")
  .add(everything)
  .add(snapshotCreate)
  .add(snapshotCreateLegacy)
  .add(snapshotGet) {}
