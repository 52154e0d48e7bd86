/**
 * The reports-in group (docs/reports-in.md): DMARC aggregate and SMTP TLS reports posted by mail
 * receivers and senders, and the summaries a domain owner reads. The bodies of the two POSTs are
 * reports, not JSON: the edge admits their media types as bytes (http/edge/BodyRules.ts).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema } from "@effect/platform"
import { Context, Schema } from "effect"
import type { Authenticity } from "../inbound/Authenticity.ts"
import { DmarcSummary } from "../inbound/DmarcSummary.ts"
import { FailureIngestResult } from "../inbound/FailureReportsIn.ts"
import { FailureSummary } from "../inbound/FailureSummary.ts"
import { IngestResult } from "../inbound/ReportsIn.ts"
import { TlsSummary } from "../inbound/TlsSummary.ts"
import { DomainPath } from "./Domain.ts"
import { BadRequest, Forbidden, PayloadTooLarge, Unavailable } from "./Errors.ts"
import { bearerGuard, type Viewer } from "./KeyGuard.ts"
import { cheap } from "./Cost.ts"
import { Endpoint } from "./Docs.ts"

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { error: Schema.String },
  HttpApiSchema.annotations({
    status: 415,
    description: "Not a report media type, or a message without a report"
  })
) {}

const ContentType = Schema.Struct({ "content-type": Schema.optional(Schema.String) })
const PeriodQuery = Schema.Struct({
  from: Schema.optional(Schema.String).annotations({
    description: "date or RFC 3339 date-time; default: 30 days before `to`"
  }),
  to: Schema.optional(Schema.String).annotations({
    description: "date or RFC 3339 date-time (exclusive); default: now"
  })
})

/**
 * Who posted a report, as the write guard found it: with an API key holding `reports:write` or
 * from the machine itself (authenticated by that), or anonymously while no key exists (not); and
 * the tenant whose verified domains alone it may post for (undefined: the operator, or the open
 * default, who post for any domain).
 */
export class ReportPoster extends Context.Tag("ReportPoster")<
  ReportPoster,
  Viewer & { readonly authenticity: Authenticity }
>() {}

/**
 * Who may post reports (docs/access.md): the machine itself, or an API key with `reports:write`;
 * anyone while no key exists at all (the embedded default, where reporters post as they always did).
 */
export class ReportsWriteAccess extends HttpApiMiddleware.Tag<ReportsWriteAccess>()("ReportsWriteAccess", {
  ...bearerGuard,
  provides: ReportPoster
}) {}

/**
 * Whose reports a request reads, as ReportsReadAccess decided: a tenant's key those of the domains
 * its tenant has verified (`tenant`), the operator and the open default every domain's (undefined).
 */
export class ReportsReader extends Context.Tag("ReportsReader")<ReportsReader, Viewer>() {}

/**
 * Who may read what was received (docs/access.md): the machine itself, an admin key, or an API key
 * with `reports:read` for the domains its tenant has verified; anyone while no key exists at all
 * (the embedded default).
 */
export class ReportsReadAccess extends HttpApiMiddleware.Tag<ReportsReadAccess>()("ReportsReadAccess", {
  ...bearerGuard,
  provides: ReportsReader
}) {}

/**
 * A report posted: cheap, read as its Content-Type says, answered 202 with what was stored; 400 for
 * a report that does not parse, 403 for a domain not the poster's, 413, 415, and 503 while the
 * store is down.
 */
const receives =
  <P extends Schema.Schema.Any, S extends Schema.Schema.Any>(payload: P, success: S) =>
  <Name extends string>(endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, "POST">) =>
    endpoint
      .annotateContext(cheap)
      .setHeaders(ContentType)
      .setPayload(payload)
      .addSuccess(success, { status: 202 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unavailable)
      .middleware(ReportsWriteAccess)

/** A summary of what was received for a domain over a period (`?from=&to=`), read through ReportsReadAccess. */
const summarises =
  <S extends Schema.Schema.Any>(success: S) =>
  <Name extends string>(endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, "GET">) =>
    endpoint
      .setPath(DomainPath)
      .setUrlParams(PeriodQuery)
      .addSuccess(success)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Unavailable)
      .middleware(ReportsReadAccess)

const postDmarc = Endpoint.post("postDmarc", "/reports/dmarc", {
  summary: "Receive a DMARC aggregate report",
  description:
    "Store a DMARC aggregate report (RFC 7489 Appendix C, RFC 9990) sent as application/xml, application/gzip, application/zip or a whole message (message/rfc822) carrying one. The same report (reporter and report id) is stored once: `duplicate: true`. A tenant's key posts reports only for the domains its tenant has verified (403 naming the domain otherwise); the operator for any."
}).pipe(receives(HttpApiSchema.Uint8Array({ contentType: "application/xml" }), IngestResult))

const postTls = Endpoint.post("postTls", "/reports/tls", {
  summary: "Receive an SMTP TLS report",
  description:
    "Store an SMTP TLS report (RFC 8460) sent as application/tlsrpt+json or application/tlsrpt+gzip (RFC 8460 5.3, the https rua= of a _smtp._tls record). A tenant's key posts a report only if its tenant has verified every domain the report covers (403 naming the first other one)."
}).pipe(receives(HttpApiSchema.Uint8Array({ contentType: "application/tlsrpt+json" }), IngestResult))

const dmarcSummary = Endpoint.get("dmarcSummary", "/reports/dmarc/:domain", {
  summary: "Summarise a domain's DMARC aggregate reports",
  description:
    "What the stored aggregate reports of a period say: messages, DMARC pass rate, each sending source (PTR, provider, alignment, dispositions), DKIM selectors, reporters, and whether p=reject would lose legitimate mail (readyForReject). A tenant's API key reads the domains its tenant has verified (POST /domains); another domain answers 403."
}).pipe(summarises(DmarcSummary))

const tlsSummary = Endpoint.get("tlsSummary", "/reports/tls/:domain", {
  summary: "Summarise a domain's SMTP TLS reports",
  description:
    "What the stored TLS reports of a period say: sessions, failures by result type and by MX host, and per policy. A tenant's API key reads the domains its tenant has verified (POST /domains); another domain answers 403."
}).pipe(summarises(TlsSummary))

const postFailure = Endpoint.post("postFailure", "/reports/failure", {
  summary: "Receive a DMARC failure report",
  description:
    "Store a DMARC failure report (RFC 7489 7.3: an RFC 6591 authentication-failure report in the Abuse Reporting Format, or a receiver's plain-text variant) sent as the report message whole, message/rfc822 or text/plain. What is kept is reduced to what an analyst needs: the reported domain, source IP, arrival date, failure types, identities, the From domain and the original's routing and authentication headers; no recipient, local part, Subject or body unless the operator sets REPORTS_KEEP_FAILURE_BODIES. The same message is stored once: `duplicate: true`. A report posted with an API key holding reports:write counts as authenticated. A tenant's key posts reports only for the domains its tenant has verified (403 naming the domain otherwise); the operator for any."
}).pipe(
  receives(
    // text/plain is read as text by the platform (HttpApiBuilder's payload), message/rfc822 as bytes
    Schema.Union(
      HttpApiSchema.Uint8Array({ contentType: "message/rfc822" }),
      HttpApiSchema.Text({ contentType: "text/plain" })
    ),
    FailureIngestResult
  )
)

const failureSummary = Endpoint.get("failureSummary", "/reports/failure/:domain", {
  summary: "Summarise a domain's DMARC failure reports",
  description:
    "What the stored failure reports of a period (by the arrival of the reported message) say: counts with first and last seen by source IP, by failure type (RFC 6591 Auth-Failure) and by identity (DKIM d=/s=, the SPF domain), the reporters, and how many reports were authenticated."
}).pipe(summarises(FailureSummary))

export class ReportsApi extends HttpApiGroup.make("reports")
  .add(postDmarc)
  .add(postTls)
  .add(dmarcSummary)
  .add(tlsSummary)
  .add(postFailure)
  .add(failureSummary) {}
