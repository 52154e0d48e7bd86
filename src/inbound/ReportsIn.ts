/**
 * Reports in (docs/reports-in.md): a report posted or mailed to the service is decoded within the
 * limits, stored whole in one transaction or not at all, and deduplicated on reporter and report
 * id. Every refusal is counted (by a bounded reason, never the domain) and logged; stored reports
 * past `REPORTS_RETENTION` are pruned hourly.
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, FiberRef, Layer, Metric, Option, Queue, Schedule, Schema } from "effect"
import { labelsOf } from "../observe/Metrics.ts"
import { Exporting } from "../observe/Spans.ts"
import { SelectorSource } from "../kernel/Facts.ts"
import { AppConfig, type Settings } from "../Config.ts"
import { DateTime } from "../records/Schemas.ts"
import { pruneReports, type ReportHead, selectorsSeen, storeReport } from "../store/InboundReports.ts"
import { ROLLUP_ROWS, rollUpAll } from "../store/DmarcRollup.ts"
import { SqliteDirect } from "../store/SqliteConnection.ts"
import { keepUnclaimed } from "../store/UnclaimedReports.ts"
import { Authenticity, authenticityColumns } from "./Authenticity.ts"
import { ACCEPTED_TYPES, mediaType, readMessage, readPosted } from "./Decode.ts"
import { parsePool, type Readied } from "./ParsePool.ts"
import { refuse, ReportRefused, type ReportLimits } from "./Refusal.ts"
import { type Route, STORE } from "./ReportRecipients.ts"
import { type ReportKind, storable } from "./Storable.ts"

/** 202 of POST /api/reports/dmarc and /api/reports/tls. */
export const IngestResult = Schema.Struct({
  /** The report's own id, as its sender wrote it (`report_id`, `report-id`). */
  reportId: Schema.String,
  domain: Schema.String,
  /** The sender's organisation (`org_name`, `organization-name`). */
  reporter: Schema.String,
  period: Schema.Struct({ begin: DateTime, end: DateTime }),
  /** DMARC: records; TLS-RPT: policies. */
  records: Schema.Int,
  /** The same report (reporter, report id, domain and content) was stored before; nothing new was written. */
  duplicate: Schema.Boolean,
  /**
   * Another report with the same reporter, report id and domain but other content is stored: both
   * are kept and counted, and flagged in the summary's `conflicts` (a forgery, or a corrected re-send).
   */
  conflict: Schema.Boolean,
  /** What was repaired to read the report (a receiver's quirk), each said once; [] when nothing was. */
  warnings: Schema.Array(Schema.String),
  /** Who sent it, as far as can be told (docs/reports-in.md "Authenticity"). */
  ...Authenticity.fields
})
export type IngestResult = typeof IngestResult.Type

export const limitsOf = (s: Settings): ReportLimits => ({
  maxBytes: s.reportsMaxBytes,
  maxUnpackedBytes: s.reportsMaxUnpackedBytes,
  maxRatio: s.reportsMaxRatio,
  maxRecords: s.reportsMaxRecords,
  maxZipEntries: s.reportsMaxZipEntries
})

/** How a report arrived: a label of the counters. */
export type Via = "http" | "smtp"

const received = Metric.counter("domain_audit_reports_received_total", {
  description: "reports stored (duplicates included), by kind and how they arrived",
  incremental: true
})
const refused = Metric.counter("domain_audit_reports_refused_total", {
  description:
    "reports refused, by how they arrived and why (too-large, bomb, unsupported, malformed, forbidden, schema, expired)",
  incremental: true
})

/** One more on `counter`'s series of these labels (their list made once: observe/Metrics.ts `labelsOf`). */
const count = (counter: typeof received, name: string, pairs: Record<string, string>) =>
  Effect.sync(() => counter.unsafeUpdate(1, labelsOf(`${name} ${Object.values(pairs).join(" ")}`, pairs)))

/** A span around `self` only while traces leave the process (observe/Spans.ts): it costs more than it tells otherwise. */
const spannedWhenExported =
  (name: string, attributes?: Record<string, string>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(Exporting), (on) =>
      on ? Effect.withSpan(self, name, attributes === undefined ? undefined : { attributes }) : self
    )

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/**
 * What the sender is told, the same whether the report was stored or kept apart (`head`: the
 * report's head as `storable` made it).
 */
export const result = (
  head: ReportHead,
  stored: { readonly fresh: boolean; readonly conflict: boolean },
  verdict: Authenticity
): IngestResult => {
  return {
    reportId: head.reportId,
    domain: head.domain,
    reporter: head.reporter,
    period: { begin: iso(head.begin), end: iso(head.end) },
    records: head.records,
    duplicate: !stored.fresh,
    conflict: stored.conflict,
    warnings: head.warnings ?? [],
    // named one by one: the 202 is written as built (the schema's fields, in its order)
    authenticated: verdict.authenticated,
    authenticatedFor: verdict.authenticatedFor,
    authentication: verdict.authentication
  }
}

/**
 * Stored DMARC reports are folded into the summary's rollup (store/DmarcRollup.ts) this long after
 * one is stored (those stored meanwhile with it), `ROLLUP_ROWS` rows per transaction with a turn of
 * the event loop between two, so a report of 100,000 records never holds the service for the whole
 * of its fold: a summary reads the rows not yet folded raw, so this bounds its work, not its answer.
 */
const ROLLUP_AFTER_MS = 1_000

/**
 * Reports posted over HTTP up to this size (as posted) are read in a parse worker (ParsePool.ts),
 * handed over whole and their rows handed back whole; larger ones (a gzipped report of tens of
 * thousands of records) are read on the service's thread as a stream, yielding between slices,
 * so their rows are never held twice.
 */
const POOL_MAX_BYTES = 256 * 1024

/** The most selectors from reports DKIM discovery asks first. */
export const MAX_REPORTED_SELECTORS = 20

export class ReportsIn extends Effect.Service<ReportsIn>()("ReportsIn", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    // the connection itself where the app's client provides it: a report is written there in one go
    const direct = yield* Effect.serviceOption(SqliteDirect)
    const withStore = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.provideService(
        Option.match(direct, {
          onNone: () => effect,
          onSome: (d) => Effect.provideService(effect, SqliteDirect, d)
        }),
        SqlClient.SqlClient,
        sql
      )
    const limits = limitsOf(config)
    /** Reports were stored: the rollup has work (one signal stands for any number). */
    const stored = yield* Queue.sliding<void>(1)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => parsePool(config.reportsParseWorkers)),
      (p) => Effect.promise(() => p.close())
    )

    /**
     * A posted report read into its head and rows: in a parse worker when it is small, else (or when
     * the worker is lost) on this thread, by the same code: the answer is the same either way.
     */
    const read = (kind: ReportKind, contentType: string | undefined, bytes: Uint8Array) => {
      const here = Effect.map(readPosted(kind, contentType, bytes, limits), storable)
      return pool.available() &&
        bytes.length <= POOL_MAX_BYTES &&
        ACCEPTED_TYPES[kind].includes(mediaType(contentType))
        ? pool
            .parse({ kind, contentType, bytes, limits })
            .pipe(
              Effect.catchTag("ParseWorkerLost", (e) =>
                Effect.zipRight(
                  Effect.logWarning("a report was read on the service's thread", e.reason),
                  here
                )
              )
            )
        : here
    }

    /**
     * Store a report read from `message`, where `route` sends it once its domain is known: the
     * summaries' tables, or kept apart as the whole message for tenants who have not verified the
     * domain (the route may refuse it instead, as a tenant's post for another's domain).
     */
    const store = <E>(
      { head, rows }: Readied,
      via: Via,
      authenticity: Effect.Effect<Authenticity>,
      message: Uint8Array,
      route: (domains: ReadonlyArray<string>) => Effect.Effect<Route, E>
    ) =>
      Effect.gen(function* () {
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        // Pruning would remove it within the hour: say so now rather than 202 and then delete it.
        if (head.end < now - config.reportsRetentionS)
          return yield* Effect.fail(
            refuse(
              "expired",
              `the report's period ended ${iso(head.end).slice(0, 10)}, longer ago than this service keeps reports (REPORTS_RETENTION, ${Math.round(config.reportsRetentionS / 86_400)} days): not stored`
            )
          )
        // a TLS report files each policy under its own domain: every one of them is the report's
        const to = yield* route(
          rows.kind === "tls" ? [head.domain, ...rows.rows.map((r) => r.domain)] : [head.domain]
        )
        const verdict = yield* authenticity
        if (to.to === "unclaimed") {
          const kept = yield* Effect.forEach(to.tenants, (tenant) =>
            keepUnclaimed({
              tenant,
              domain: head.domain,
              kind: "aggregate",
              received_at: now,
              message,
              content_hash: `sha256:${createHash("sha256").update(message).digest("hex")}`,
              ...authenticityColumns(verdict)
            })
          )
          return result(head, { fresh: kept.some((k) => k.fresh), conflict: false }, verdict)
        }
        // the report and its verdict in one transaction: one commit (and one WAL sync) per report
        const saved = yield* storeReport(head, now, rows, authenticityColumns(verdict))
        if (head.kind === "dmarc" && saved.fresh) yield* Queue.offer(stored, undefined)
        yield* count(received, "received", { kind: head.kind, via })
        return result(head, saved, verdict)
      }).pipe(withStore)

    const counted = <A, E>(via: Via, effect: Effect.Effect<A, E>) =>
      Effect.tapError(effect, (e) =>
        e instanceof ReportRefused
          ? Effect.zipRight(
              count(refused, "refused", { via, reason: e.kind }),
              Effect.logWarning("report refused", { via, reason: e.kind, message: e.message })
            )
          : e instanceof Error && "_tag" in e && e._tag !== "SqlError"
            ? Effect.logWarning("a report was not stored", e.message)
            : Effect.logError("a report could not be stored", e)
      )

    /**
     * A report posted to the endpoint for `kind` with its Content-Type, by `poster` (the write
     * guard's verdict); `allowed` refuses a domain the poster may not post for.
     */
    const post = <E>(
      kind: ReportKind,
      contentType: string | undefined,
      bytes: Uint8Array,
      poster: Authenticity,
      allowed: (domains: ReadonlyArray<string>) => Effect.Effect<void, E>
    ) =>
      counted(
        "http",
        Effect.flatMap(read(kind, contentType, bytes), (p) =>
          store(p, "http", Effect.succeed(poster), bytes, (domains) => Effect.as(allowed(domains), STORE))
        )
      ).pipe(spannedWhenExported("ReportsIn.post", { kind }))

    /**
     * A whole message (RFC 5322) carrying a DMARC or TLS report, as the SMTP receiver takes it;
     * `authenticate` (the message's DMARC verdict) runs once the report has been read, `route`
     * says whose it is by its domain (ReportRecipients.ts `routeFor`).
     */
    const mail = <E>(
      bytes: Uint8Array,
      authenticate: Effect.Effect<Authenticity>,
      route: (domains: ReadonlyArray<string>) => Effect.Effect<Route, E>
    ) =>
      counted(
        "smtp",
        Effect.flatMap(readMessage(bytes, limits), (p) =>
          store(storable(p), "smtp", authenticate, bytes, route)
        )
      ).pipe(spannedWhenExported("ReportsIn.mail"))

    /** Count a refusal made before a report was read (a message over the size limit). */
    const refusedEarly = (via: Via, error: ReportRefused) =>
      counted(via, Effect.fail(error)).pipe(Effect.ignore)

    /** Remove what is past retention; returns how many reports went. */
    const prune = Effect.gen(function* () {
      const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      return yield* pruneReports(now - config.reportsRetentionS)
    }).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    /** The DKIM selectors stored reports name for `domain`; [] when the store cannot answer. */
    const selectorsFor = (domain: string) =>
      selectorsSeen(domain, MAX_REPORTED_SELECTORS).pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.catchAll((e) => Effect.as(Effect.logWarning("reported selectors unavailable", e), []))
      )

    // the summary's rollup catches up with the reports stored meanwhile (and, at start, before)
    yield* Queue.offer(stored, undefined)
    yield* Queue.take(stored).pipe(
      Effect.zipRight(Effect.sleep(ROLLUP_AFTER_MS)),
      Effect.zipRight(rollUpAll(ROLLUP_ROWS)),
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.catchAllCause((cause) => Effect.logWarning("rolling up DMARC reports failed", cause)),
      Effect.forever,
      Effect.forkScoped
    )
    yield* prune.pipe(
      Effect.tap((n) => (n > 0 ? Effect.logInfo(`pruned ${n} reports past REPORTS_RETENTION`) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning("pruning reports failed", cause)),
      Effect.repeat(Schedule.spaced(config.housekeepingIntervalMs)),
      Effect.forkScoped
    )
    return { post, mail, refusedEarly, prune, selectorsFor, limits }
  })
}) {}

/** The selectors stored reports name, as the scan's Facts read them (kernel/Facts.ts `reportedSelectors`). */
export const ReportedSelectorsLive = Layer.effect(
  SelectorSource,
  Effect.map(ReportsIn, (inbound) => ({ selectorsFor: inbound.selectorsFor }))
)
