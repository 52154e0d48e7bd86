/** Handlers of the reports-in group (docs/reports-in.md): decode -> inbound/ -> encode. */
import { HttpApiBuilder, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Layer } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest, PayloadTooLarge, Unavailable } from "../../api/Errors.ts"
import { ReportPoster, ReportsReader, UnsupportedMediaType } from "../../api/Inbound.ts"
import { FailureReportsIn } from "../../inbound/FailureReportsIn.ts"
import { VerifiedDomains } from "../../monitor/access/VerifiedDomains.ts"
import { mayPostFor, ownedBy } from "./OwnedDomain.ts"
import type { ReportKind } from "../../inbound/Decode.ts"
import type { ReportRefused } from "../../inbound/Refusal.ts"
import { STORE } from "../../inbound/ReportRecipients.ts"
import { ReportsIn } from "../../inbound/ReportsIn.ts"
import { ReportsReadAccessLive, ReportsWriteAccessLive } from "../edge/Access.ts"
import { type Period, readPeriod, ReportSummaries } from "../../inbound/Summaries.ts"

const refusal = (e: ReportRefused) =>
  e.kind === "too-large"
    ? new PayloadTooLarge({ error: e.message })
    : e.kind === "unsupported"
      ? new UnsupportedMediaType({ error: e.message })
      : new BadRequest({ error: e.message })

const unavailable = () => new Unavailable({ error: "the report store is unavailable; retry later" })

/**
 * A report posted: its bytes as the edge read them (BodyRules.ts: the media type and size judged,
 * the body held), and the 202 written as `IngestResult` was built (ReportsIn.ts `result`), without
 * decoding the one or encoding the other through their schemas again: the answer is the same,
 * for a fraction of the CPU of a report of 50 records.
 */
const post = (
  kind: ReportKind,
  headers: { readonly "content-type"?: string | undefined },
  request: HttpServerRequest.HttpServerRequest
) =>
  Effect.flatMap(
    Effect.all([ReportsIn, ReportPoster, VerifiedDomains, Effect.orDie(request.arrayBuffer)]),
    ([inbound, poster, domains, body]) =>
      inbound
        .post(
          kind,
          headers["content-type"],
          new Uint8Array(body),
          poster.authenticity,
          mayPostFor(domains, poster.tenant)
        )
        .pipe(
          Effect.map((result) => HttpServerResponse.unsafeJson(result, { status: 202 })),
          Effect.catchTags({
            ReportRefused: (e) => Effect.fail(refusal(e)),
            SqlError: () => Effect.fail(unavailable())
          })
        )
  )

/** Whether the request may read the domain's received reports (OwnedDomain.ts). */
const readable = (domain: string) =>
  Effect.flatMap(ReportsReader, ({ tenant }) => ownedBy(tenant, domain, "reports"))

/** A failure report posted: its media type was judged at the edge (REPORT_BODY_TYPES). */
const postFailure = (payload: Uint8Array | string) =>
  Effect.flatMap(
    Effect.all([FailureReportsIn, ReportPoster, VerifiedDomains]),
    ([inbound, poster, domains]) =>
      inbound
        .take(
          typeof payload === "string" ? new TextEncoder().encode(payload) : payload,
          "http",
          Effect.succeed(poster.authenticity),
          (reported) => Effect.as(mayPostFor(domains, poster.tenant)(reported), STORE)
        )
        .pipe(
          Effect.catchTags({
            ReportRefused: (e) => Effect.fail(refusal(e)),
            SqlError: () => Effect.fail(unavailable())
          })
        )
  )

const summary = <A, E>(
  domain: string,
  period: Period,
  run: (s: ReportSummaries, p: { from: number; to: number }) => Effect.Effect<A, E>
) =>
  Effect.zipRight(
    readable(domain),
    Effect.flatMap(ReportSummaries, (s) =>
      Effect.flatMap(s.now, (now): Effect.Effect<A, BadRequest | Unavailable> =>
        Either.match(readPeriod(period, now), {
          onLeft: (error) => Effect.fail(new BadRequest({ error })),
          onRight: (p) => Effect.catchAll(run(s, p), () => Effect.fail(unavailable()))
        })
      )
    )
  )

export const ReportsInHandlers = HttpApiBuilder.group(Api, "reports", (handlers) =>
  handlers
    .handleRaw("postDmarc", ({ headers, request }) => post("dmarc", headers, request))
    .handleRaw("postTls", ({ headers, request }) => post("tls", headers, request))
    .handle("dmarcSummary", ({ path, urlParams }) =>
      summary(path.domain, urlParams, (s, p) => s.dmarc(path.domain, p))
    )
    .handle("tlsSummary", ({ path, urlParams }) =>
      summary(path.domain, urlParams, (s, p) => s.tls(path.domain, p))
    )
    .handle("postFailure", ({ payload }) => postFailure(payload))
    .handle("failureSummary", ({ path, urlParams }) =>
      Effect.flatMap(FailureReportsIn, (f) =>
        summary(path.domain, urlParams, (_, p) => f.summary(path.domain, p))
      )
    )
).pipe(Layer.provide([ReportsReadAccessLive, ReportsWriteAccessLive]))
