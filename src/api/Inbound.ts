/**
 * The reports-in group (docs/reports-in.md): DMARC aggregate and SMTP TLS reports posted by mail
 * receivers and senders, and the summaries a domain owner reads. The bodies of the two POSTs are
 * reports, not JSON: the edge admits their media types as bytes (http/edge/BodyRules.ts).
 */
import {
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity
} from "@effect/platform"
import { Context, Schema } from "effect"
import type { Authenticity } from "../inbound/Authenticity.ts"
import { DmarcSummary } from "../inbound/DmarcSummary.ts"
import { FailureIngestResult } from "../inbound/FailureReportsIn.ts"
import { FailureSummary } from "../inbound/FailureSummary.ts"
import { IngestResult } from "../inbound/ReportsIn.ts"
import { TlsSummary } from "../inbound/TlsSummary.ts"
import { documented } from "./Docs.ts"
import { DomainPath } from "./Domain.ts"
import { BadRequest, Forbidden, PayloadTooLarge, Unauthorized, Unavailable } from "./Errors.ts"
import { cheap } from "./Cost.ts"

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

const post = <const N extends string>(
  name: N,
  path: `/${string}`,
  contentType: string,
  summary: string,
  description: string
) =>
  HttpApiEndpoint.post(name, path)
    .annotateContext(cheap)
    .setHeaders(ContentType)
    .setPayload(HttpApiSchema.Uint8Array({ contentType }))
    .addSuccess(IngestResult, { status: 202 })
    .addError(BadRequest)
    .addError(Forbidden)
    .addError(PayloadTooLarge)
    .addError(UnsupportedMediaType)
    .addError(Unavailable)
    .annotateContext(documented(summary, description))
    .middleware(ReportsWriteAccess)

/**
 * Who posted a report, as the write guard found it: with an API key holding `reports:write` or
 * from the machine itself (authenticated by that), or anonymously while no key exists (not); and
 * the tenant whose verified domains alone it may post for (undefined: the operator, or the open
 * default, who post for any domain).
 */
export class ReportPoster extends Context.Tag("ReportPoster")<
  ReportPoster,
  { readonly authenticity: Authenticity; readonly tenant: string | undefined }
>() {}

/**
 * Who may post reports (docs/access.md): the machine itself, or an API key with `reports:write`;
 * anyone while no key exists at all (the embedded default, where reporters post as they always did).
 */
export class ReportsWriteAccess extends HttpApiMiddleware.Tag<ReportsWriteAccess>()("ReportsWriteAccess", {
  failure: Schema.Union(Unauthorized, Forbidden, Unavailable),
  provides: ReportPoster,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * Whose reports a request reads, as ReportsReadAccess decided: a tenant's key those of the domains
 * its tenant has verified (`tenant`), the operator and the open default every domain's (undefined).
 */
export class ReportsReader extends Context.Tag("ReportsReader")<
  ReportsReader,
  { readonly tenant: string | undefined }
>() {}

/**
 * Who may read what was received (docs/access.md): the machine itself, an admin key, or an API key
 * with `reports:read` for the domains its tenant has verified; anyone while no key exists at all
 * (the embedded default).
 */
export class ReportsReadAccess extends HttpApiMiddleware.Tag<ReportsReadAccess>()("ReportsReadAccess", {
  failure: Schema.Union(Unauthorized, Forbidden, Unavailable),
  provides: ReportsReader,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    post(
      "postDmarc",
      "/reports/dmarc",
      "application/xml",
      "Receive a DMARC aggregate report",
      "Store a DMARC aggregate report (RFC 7489 Appendix C, RFC 9990) sent as application/xml, application/gzip, application/zip or a whole message (message/rfc822) carrying one. The same report (reporter and report id) is stored once: `duplicate: true`. A tenant's key posts reports only for the domains its tenant has verified (403 naming the domain otherwise); the operator for any."
    )
  )
  .add(
    post(
      "postTls",
      "/reports/tls",
      "application/tlsrpt+json",
      "Receive an SMTP TLS report",
      "Store an SMTP TLS report (RFC 8460) sent as application/tlsrpt+json or application/tlsrpt+gzip (RFC 8460 5.3, the https rua= of a _smtp._tls record). A tenant's key posts a report only if its tenant has verified every domain the report covers (403 naming the first other one)."
    )
  )
  .add(
    HttpApiEndpoint.get("dmarcSummary", "/reports/dmarc/:domain")
      .setPath(DomainPath)
      .setUrlParams(PeriodQuery)
      .addSuccess(DmarcSummary)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Unavailable)
      .annotateContext(
        documented(
          "Summarise a domain's DMARC aggregate reports",
          "What the stored aggregate reports of a period say: messages, DMARC pass rate, each sending source (PTR, provider, alignment, dispositions), DKIM selectors, reporters, and whether p=reject would lose legitimate mail (readyForReject). A tenant's API key reads the domains its tenant has verified (POST /domains); another domain answers 403."
        )
      )
      .middleware(ReportsReadAccess)
  )
  .add(
    HttpApiEndpoint.get("tlsSummary", "/reports/tls/:domain")
      .setPath(DomainPath)
      .setUrlParams(PeriodQuery)
      .addSuccess(TlsSummary)
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Unavailable)
      .annotateContext(
        documented(
          "Summarise a domain's SMTP TLS reports",
          "What the stored TLS reports of a period say: sessions, failures by result type and by MX host, and per policy. A tenant's API key reads the domains its tenant has verified (POST /domains); another domain answers 403."
        )
      )
      .middleware(ReportsReadAccess)
  )
  .add(
    HttpApiEndpoint.post("postFailure", "/reports/failure")
      .annotateContext(cheap)
      .setHeaders(ContentType)
      // text/plain is read as text by the platform (HttpApiBuilder's payload), message/rfc822 as bytes
      .setPayload(
        Schema.Union(
          HttpApiSchema.Uint8Array({ contentType: "message/rfc822" }),
          HttpApiSchema.Text({ contentType: "text/plain" })
        )
      )
      .addSuccess(FailureIngestResult, { status: 202 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(Unavailable)
      .annotateContext(
        documented(
          "Receive a DMARC failure report",
          "Store a DMARC failure report (RFC 7489 7.3: an RFC 6591 authentication-failure report in the Abuse Reporting Format, or a receiver's plain-text variant) sent as the report message whole, message/rfc822 or text/plain. What is kept is reduced to what an analyst needs: the reported domain, source IP, arrival date, failure types, identities, the From domain and the original's routing and authentication headers; no recipient, local part, Subject or body unless the operator sets REPORTS_KEEP_FAILURE_BODIES. The same message is stored once: `duplicate: true`. A report posted with an API key holding reports:write counts as authenticated. A tenant's key posts reports only for the domains its tenant has verified (403 naming the domain otherwise); the operator for any."
        )
      )
      .middleware(ReportsWriteAccess)
  )
  .add(
    HttpApiEndpoint.get("failureSummary", "/reports/failure/:domain")
      .setPath(DomainPath)
      .setUrlParams(PeriodQuery)
      .addSuccess(FailureSummary)
      .addError(BadRequest)
      .addError(Unavailable)
      .annotateContext(
        documented(
          "Summarise a domain's DMARC failure reports",
          "What the stored failure reports of a period (by the arrival of the reported message) say: counts with first and last seen by source IP, by failure type (RFC 6591 Auth-Failure) and by identity (DKIM d=/s=, the SPF domain), the reporters, and how many reports were authenticated."
        )
      )
      .middleware(ReportsReadAccess)
  ) {}
