/**
 * DMARC failure reports in (docs/reports-in.md "Failure reports"): a report mailed to the SMTP
 * receiver or posted to POST /api/reports/failure is read (inbound/FailureReport.ts), reduced to
 * what an analyst needs, stored with the verdict on who sent it, and summarised at
 * GET /api/reports/failure/{domain}. Reports past `REPORTS_RETENTION` are refused at the door and
 * pruned hourly, as aggregate reports are.
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Either, Metric, Schedule, Schema } from "effect"
import { labelsOf } from "../observe/Metrics.ts"
import { AppConfig } from "../Config.ts"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"
import {
  failureCount,
  failureRows,
  pruneFailureReports,
  storeFailureReport
} from "../store/FailureReports.ts"
import { keepUnclaimed } from "../store/UnclaimedReports.ts"
import { Authenticity, authenticityColumns } from "./Authenticity.ts"
import { readFailureMessage } from "./FailureDecode.ts"
import { addressDomain, type FailureReport, readFailureReport } from "./FailureReport.ts"
import { summariseFailures } from "./FailureSummary.ts"
import { refuse } from "./Refusal.ts"
import type { Route } from "./ReportRecipients.ts"

/** 202 of POST /api/reports/failure, and what the SMTP receiver's 250 says. */
export const FailureIngestResult = Schema.Struct({
  domain: Schema.String,
  /** The domain of the report message's From; `unknown` when it has none. */
  reporter: Schema.String,
  /** `arf` (RFC 6591) or `plain-text` (a receiver's own format). */
  format: Schema.Literal("arf", "plain-text"),
  sourceIp: Nullable(Schema.String),
  /** When the original message arrived at the receiver (Arrival-Date; else the report's Date). */
  arrival: DateTime,
  /** The RFC 6591 Auth-Failure types, sorted. */
  failures: Strings,
  /** The same message was stored before; nothing new was written. */
  duplicate: Schema.Boolean,
  /** Whether the original's body was kept (REPORTS_KEEP_FAILURE_BODIES). */
  bodyKept: Schema.Boolean,
  ...Authenticity.fields,
  warnings: Strings
})
export type FailureIngestResult = typeof FailureIngestResult.Type

/** The media types POST /api/reports/failure takes: the report message whole, or as text. */
export const FAILURE_TYPES: ReadonlyArray<string> = ["message/rfc822", "text/plain"]

const stored = Metric.counter("domain_audit_failure_reports_received_total", {
  description: "failure reports stored (duplicates included), by how they arrived",
  incremental: true
})

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

export class FailureReportsIn extends Effect.Service<FailureReportsIn>()("FailureReportsIn", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const keepBodies = config.reportsKeepFailureBodies
    const now = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

    /**
     * Read and store one report message; `authenticate` says who sent it (the mail's DMARC verdict,
     * or the API key), run once the report has been read; `route` says whose it is by its domain
     * (kept apart, whole, for tenants who have not verified it), or refuses it.
     */
    const take = <E>(
      bytes: Uint8Array,
      via: "http" | "smtp",
      authenticate: Effect.Effect<Authenticity>,
      route: (domains: ReadonlyArray<string>) => Effect.Effect<Route, E>
    ) =>
      Effect.gen(function* () {
        if (bytes.length > config.reportsMaxBytes)
          return yield* Effect.fail(
            refuse("too-large", `the report is larger than ${config.reportsMaxBytes} bytes`)
          )
        const message = yield* readFailureMessage(bytes)
        const read = readFailureReport(message.parts, keepBodies)
        if (Either.isLeft(read)) return yield* Effect.fail(refuse(read.left.kind, read.left.message))
        const report: FailureReport = read.right
        const received = yield* now
        const warnings: Array<string> = []
        const dated = message.date === undefined ? null : Math.floor(message.date.getTime() / 1000)
        const arrival = report.arrival ?? dated ?? received
        if (report.arrival === null)
          warnings.push(
            dated === null
              ? "no Arrival-Date and no Date: the time it was received here is used"
              : "no Arrival-Date: the report's Date is used"
          )
        if (report.sourceIp === null) warnings.push("no Source-IP: the report is counted without a source")
        if (arrival < received - config.reportsRetentionS)
          return yield* Effect.fail(
            refuse(
              "expired",
              `the reported message arrived ${iso(arrival).slice(0, 10)}, longer ago than this service keeps reports (REPORTS_RETENTION, ${Math.round(config.reportsRetentionS / 86_400)} days): not stored`
            )
          )
        const reporter = addressDomain(message.from ?? null) ?? "unknown"
        const to = yield* route([report.domain])
        const authenticity = yield* authenticate
        const contentHash = `sha256:${createHash("sha256").update(bytes).digest("hex")}`
        const answer = (fresh: boolean): FailureIngestResult => ({
          domain: report.domain,
          reporter,
          format: report.format,
          sourceIp: report.sourceIp,
          arrival: iso(arrival),
          failures: report.failures,
          duplicate: !fresh,
          bodyKept: report.original !== null,
          ...authenticity,
          warnings
        })
        if (to.to === "unclaimed") {
          const kept = yield* Effect.forEach(to.tenants, (tenant) =>
            keepUnclaimed({
              tenant,
              domain: report.domain,
              kind: "failure",
              received_at: received,
              message: bytes,
              content_hash: contentHash,
              ...authenticityColumns(authenticity)
            })
          )
          return answer(kept.some((k) => k.fresh))
        }
        const { fresh } = yield* storeFailureReport({
          domain: report.domain,
          reporter,
          format: report.format,
          received_at: received,
          arrival_at: arrival,
          source_ip: report.sourceIp,
          failures: report.failures.join(","),
          identity_alignment: report.identityAlignment,
          delivery_result: report.deliveryResult,
          authentication_results: JSON.stringify(report.authenticationResults),
          dkim_domain: report.dkimDomain,
          dkim_selector: report.dkimSelector,
          spf_dns: report.spfDns,
          from_domain: report.fromDomain,
          mail_from_domain: report.mailFromDomain,
          user_agent: report.userAgent,
          routing: JSON.stringify(report.routing),
          auth_headers: JSON.stringify(report.authHeaders),
          subject: report.subject,
          original: report.original,
          content_hash: contentHash,
          ...authenticityColumns(authenticity)
        })
        stored.unsafeUpdate(1, labelsOf(`failure ${via}`, { via }))
        return answer(fresh)
      }).pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.withSpan("FailureReportsIn.take", { attributes: { via } })
      )

    /** The summary of a domain's failure reports that arrived in [from, to). */
    const summary = (domain: string, period: { from: number; to: number }) =>
      failureRows(domain, period.from, period.to).pipe(
        Effect.map((rows) => summariseFailures({ domain, ...period, rows })),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.withSpan("FailureReportsIn.summary")
      )

    /** How many failure reports arrived for `domain` in [from, to) (the report's received-reports part). */
    const count = (domain: string, period: { from: number; to: number }) =>
      failureCount(domain, period.from, period.to).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    const prune = Effect.gen(function* () {
      return yield* pruneFailureReports((yield* now) - config.reportsRetentionS)
    }).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    yield* prune.pipe(
      Effect.tap((n) =>
        n > 0 ? Effect.logInfo(`pruned ${n} failure reports past REPORTS_RETENTION`) : Effect.void
      ),
      Effect.catchAllCause((cause) => Effect.logWarning("pruning failure reports failed", cause)),
      Effect.repeat(Schedule.spaced(config.housekeepingIntervalMs)),
      Effect.forkScoped
    )
    return { take, summary, count, prune, now }
  })
}) {}
