/**
 * "Reports received": what the DMARC aggregate reports (RFC 7489 7.2, RFC 9990) and SMTP TLS
 * reports (RFC 8460) that reached this service say of a domain, as the Everything Report carries it
 * (`reportsReceived`). The essentials of the summaries GET /api/reports/dmarc/{domain} and
 * /api/reports/tls/{domain} serve for the same period: how much mail, how much passes, the busiest
 * sources, whether p=reject would lose legitimate mail and what blocks it; TLS sessions and their
 * failures. Reports measure what happened to the domain's mail, which no scan can see; in a
 * snapshot they are part of the hashed content, so the evidence keeps them.
 *
 * Pure: the summaries are computed where the report is assembled (composite/, which may look up
 * PTR names), and handed in.
 */
import { Schema } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { DayCount, FailingIdentity, HeaderFromCount, PolicySeen } from "../inbound/DmarcAnalyst.ts"
import { Blocker, type DmarcSummary, ReadyForReject, Unclassified } from "../inbound/DmarcSummary.ts"
import { OverReported, TlsFailureDetail } from "../inbound/TlsAnalyst.ts"
import { TlsSummary } from "../inbound/TlsSummary.ts"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"

/**
 * A share in [0, 1]: a finite number, as the content hash needs (RFC 8785 refuses NaN and Infinity).
 */
const Rate = Schema.Number.pipe(Schema.between(0, 1))

/** Rows kept of each list: a report shows the essentials; the summary endpoint has them all. */
export const RECEIVED_ROWS = 10

export const ReceivedSource = Schema.Struct({
  ip: Schema.String,
  ptr: Nullable(Schema.String),
  provider: Nullable(Schema.String),
  messages: Schema.Int,
  /** Messages with an aligned SPF or DKIM pass (RFC 7489 4.2). */
  dmarcPass: Schema.Int,
  forwarder: Schema.Boolean,
  /** The SPF and DKIM identities that did not pass for its mail (at most 3). Absent in reports made before. */
  failingIdentities: Schema.optional(Schema.Array(FailingIdentity))
})

/** Failing identities kept per source in a report. */
export const RECEIVED_IDENTITIES = 3

/**
 * How far the period's reports can be taken at their word: reports that needed a repair to be read,
 * report identities stored with more than one content (a forgery or a corrected re-send), and the
 * sources whose failing mail could not be classified because a look-up failed.
 */
export const ReceivedQuality = Schema.Struct({
  repairedReports: Schema.Int,
  conflicts: Schema.Int,
  /** The busiest unclassified sources (at most 10 of `unclassifiedTotal`). */
  unclassified: Schema.Array(Unclassified),
  unclassifiedTotal: Schema.Int
})

export const ReceivedDmarc = Schema.Struct({
  reports: Schema.Int,
  messages: Schema.Int,
  dmarcPass: Schema.Int,
  /** dmarcPass / messages; null without messages. */
  passRate: Nullable(Rate),
  /** The busiest sources (at most 10), by messages. */
  topSources: Schema.Array(ReceivedSource),
  sourcesTotal: Schema.Int,
  /** The summary's verdict and note, with its busiest blockers (at most 10 of `blockersTotal`). */
  readyForReject: Schema.Struct({
    verdict: ReadyForReject.fields.verdict,
    blockers: Schema.Array(Blocker),
    blockersTotal: Schema.Int,
    note: Schema.String
  }),
  reporters: Strings,
  // The analyst's view (DmarcAnalyst.ts); absent in reports made before it was carried.
  /** Mail by header-from domain (at most 10): a subdomain's mail apart. */
  byHeaderFrom: Schema.optional(Schema.Array(HeaderFromCount)),
  /** The period's days with mail, in order. */
  daily: Schema.optional(Schema.Array(DayCount)),
  /** The policies receivers saw published (at most 10), most reports first. */
  policyPublished: Schema.optional(Schema.Array(PolicySeen)),
  quality: Schema.optional(ReceivedQuality)
})
export type ReceivedDmarc = typeof ReceivedDmarc.Type

/** The sessions and their failures, as the TLS summary counts them. */
const { failuresByMx, failuresByResultType, sessions } = TlsSummary.fields

export const ReceivedTls = Schema.Struct({
  reports: Schema.Int,
  sessions,
  /** successful / all sessions; null without sessions. */
  successRate: Nullable(Rate),
  failuresByResultType,
  failuresByMx,
  byPolicy: Schema.Array(
    Schema.Struct({
      policyType: Schema.String,
      policyDomain: Schema.String,
      successful: Schema.Int,
      failed: Schema.Int
    })
  ),
  reporters: Strings,
  // The analyst's view (TlsAnalyst.ts); absent in reports made before it was carried.
  /** Failures as senders described them (at most 10). */
  failureDetails: Schema.optional(Schema.Array(TlsFailureDetail)),
  /** Policies whose failure details exceed their failed sessions (at most 10). */
  failureDetailsExceedingTotal: Schema.optional(Schema.Array(OverReported)),
  /** Report identities stored with more than one content. */
  conflicts: Schema.optional(Schema.Int)
})
export type ReceivedTls = typeof ReceivedTls.Type

export const ReportsReceived = Schema.Struct({
  /** The period: the 30 days before the report's `generatedAt`, as the summary endpoints default. */
  from: DateTime,
  to: DateTime,
  /** Null: no DMARC aggregate report covering the period reached this service. */
  dmarc: Nullable(ReceivedDmarc),
  /** Null: no TLS report covering the period reached this service. */
  tls: Nullable(ReceivedTls),
  /**
   * Where the domain asks for reports, as the scan read them: the `rua=` of its DMARC record and of
   * its TLS-RPT record (`_smtp._tls`); empty when it asks for none (or the record was not read).
   */
  rua: Schema.Struct({ dmarc: Strings, tls: Strings }),
  /**
   * The DMARC policy receivers apply to the domain's own mail (`effectivePolicy`), as the scan read
   * it; null when no record applies or it could not be read. With `reject`, blockers' mail is
   * refused now rather than at a future move to p=reject.
   */
  dmarcPolicy: Nullable(Schema.String),
  /** The full summaries of the same period, on this service. */
  summaryUrls: Schema.Struct({ dmarc: Schema.String, tls: Schema.String }),
  /**
   * Present when the domain's reports are private: none of its owners (tenants that verified it)
   * publishes them, so `dmarc` and `tls` are null whatever was received (docs/access.md).
   */
  private: Schema.optional(Schema.Literal(true)),
  /**
   * DMARC failure reports (RFC 7489 7.3) about the domain's mail that arrived in the period
   * (GET /api/reports/failure/{domain} summarises them); absent in reports made before they were kept.
   */
  failureReports: Schema.optional(Schema.Int)
})
export type ReportsReceived = typeof ReportsReceived.Type

/** The days a report looks back for reports received, as GET /api/reports/{kind}/{domain} by default. */
export const RECEIVED_DAYS = 30

/** The period of the reports a report made at `at` carries, in epoch seconds. */
export const receivedPeriod = (at: string): { from: number; to: number } => {
  const to = Math.floor(Date.parse(at) / 1000)
  return { from: to - RECEIVED_DAYS * 86_400, to }
}

const dmarcOf = (s: DmarcSummary): ReceivedDmarc | null =>
  s.reports === 0 && s.messages === 0
    ? null
    : {
        reports: s.reports,
        messages: s.messages,
        dmarcPass: s.dmarcPass,
        passRate: s.passRate,
        topSources: s.sources.slice(0, RECEIVED_ROWS).map((x) => ({
          ip: x.ip,
          ptr: x.ptr,
          provider: x.provider,
          messages: x.messages,
          dmarcPass: x.dmarcPass,
          forwarder: x.forwarder,
          failingIdentities: x.failingIdentities.slice(0, RECEIVED_IDENTITIES)
        })),
        sourcesTotal: s.sourcesTotal,
        readyForReject: {
          verdict: s.readyForReject.verdict,
          blockers: s.readyForReject.blockers.slice(0, RECEIVED_ROWS),
          blockersTotal: s.readyForReject.blockers.length,
          note: s.readyForReject.note
        },
        reporters: s.reporters.map((r) => r.name),
        byHeaderFrom: s.byHeaderFrom.slice(0, RECEIVED_ROWS),
        // the default period has 30 days; a longer one keeps its last 31
        daily: s.daily.slice(-31),
        policyPublished: s.policyPublished.slice(0, RECEIVED_ROWS),
        quality: {
          repairedReports: s.repairs.reports,
          conflicts: s.conflicts.length,
          unclassified: s.readyForReject.unclassified.slice(0, RECEIVED_ROWS),
          unclassifiedTotal: s.readyForReject.unclassified.length
        }
      }

const tlsOf = (s: TlsSummary): ReceivedTls | null =>
  s.reports === 0 && s.sessions.successful + s.sessions.failed === 0
    ? null
    : {
        reports: s.reports,
        sessions: s.sessions,
        successRate: s.successRate,
        failuresByResultType: s.failuresByResultType.slice(0, RECEIVED_ROWS),
        failuresByMx: s.failuresByMx.slice(0, RECEIVED_ROWS),
        byPolicy: s.byPolicy.slice(0, RECEIVED_ROWS).map((p) => ({
          policyType: p.policyType,
          policyDomain: p.policyDomain,
          successful: p.successful,
          failed: p.failed
        })),
        reporters: s.reporters.map((r) => r.name),
        failureDetails: s.failureDetails.slice(0, RECEIVED_ROWS),
        failureDetailsExceedingTotal: s.failureDetailsExceedingTotal.slice(0, RECEIVED_ROWS),
        conflicts: s.conflicts.length
      }

/** Where the scan found the domain asking for reports (RFC 7489 6.3 rua, RFC 8460 3 rua). */
const ruaOf = (scan: ScanResult) => ({
  dmarc: [...(scan.checks.dmarc.result?.rua ?? [])],
  tls: [...(scan.checks["mta-sts"].result?.tlsRpt.rua ?? [])]
})

/** The summary endpoints of `domain` for the period, under the service's base URL (ends in /api). */
const summaryUrlsOf = (base: string, domain: string, s: { from: string; to: string }) => {
  const query = `from=${encodeURIComponent(s.from)}&to=${encodeURIComponent(s.to)}`
  const d = encodeURIComponent(domain)
  return { dmarc: `${base}/reports/dmarc/${d}?${query}`, tls: `${base}/reports/tls/${d}?${query}` }
}

/**
 * The report's `reportsReceived` from the summaries of one period (both of the same period) and the
 * scan the report is made of.
 */
export const receivedOf = (
  scan: ScanResult,
  base: string,
  summaries: { readonly dmarc: DmarcSummary; readonly tls: TlsSummary; readonly failures?: number }
): ReportsReceived => ({
  from: summaries.dmarc.from,
  to: summaries.dmarc.to,
  dmarc: dmarcOf(summaries.dmarc),
  tls: tlsOf(summaries.tls),
  rua: ruaOf(scan),
  dmarcPolicy: scan.checks.dmarc.result?.effectivePolicy ?? null,
  summaryUrls: summaryUrlsOf(base, scan.domain, summaries.dmarc),
  ...(summaries.failures === undefined ? {} : { failureReports: summaries.failures })
})

/**
 * The report's `reportsReceived` when the domain's reports are private: the period, what the scan
 * read of where the domain asks for reports, and nothing of what was received.
 */
export const privateReceived = (scan: ScanResult, base: string): ReportsReceived => {
  const period = receivedPeriod(scan.computedAt)
  const times = {
    from: new Date(period.from * 1000).toISOString(),
    to: new Date(period.to * 1000).toISOString()
  }
  return {
    ...times,
    dmarc: null,
    tls: null,
    rua: ruaOf(scan),
    dmarcPolicy: scan.checks.dmarc.result?.effectivePolicy ?? null,
    summaryUrls: summaryUrlsOf(base, scan.domain, times),
    private: true
  }
}
