/**
 * The analyst's view of a period's TLS reports, beside the totals (TlsSummary.ts): each failure as
 * the sender described it (RFC 8460 4.3: result type, `failure-reason-code`, the sending and
 * receiving addresses, the MX host name and the name it gave in HELO), and the policies whose
 * failure details count more failed sessions than their `total-failure-session-count`: a report
 * that contradicts itself, whose details cannot all be taken at their word. Pure over the stored
 * policy rows; a stored text that cannot be read counts as no details.
 */
import { Schema } from "effect"
import { Nullable } from "../records/Schemas.ts"
import type { TlsPolicyRow } from "../store/InboundReports.ts"

export const TlsFailureDetail = Schema.Struct({
  /** RFC 8460 4.3 `result-type`: certificate-expired, starttls-not-supported, validation-failure, ... */
  resultType: Schema.String,
  /** `failure-reason-code`: the sender's own words or code; null when not given. */
  reasonCode: Nullable(Schema.String),
  sendingMtaIp: Nullable(Schema.String),
  receivingMxHostname: Nullable(Schema.String),
  /** The name the receiving MX gave in HELO/EHLO; null when not given (or reported before it was kept). */
  receivingMxHelo: Nullable(Schema.String),
  receivingIp: Nullable(Schema.String),
  sessions: Schema.Int
})

/** A policy of one report whose failure details add up to more than its failed sessions (RFC 8460 4.3). */
export const OverReported = Schema.Struct({
  reporter: Schema.String,
  reportId: Schema.String,
  policyType: Schema.String,
  policyDomain: Schema.String,
  /** The policy's `total-failure-session-count`. */
  failedSessions: Schema.Int,
  /** The sum of its failure details' `failed-session-count`. */
  detailSessions: Schema.Int
})

export const tlsAnalystFields = {
  /** Failures by everything the sender said of them, busiest first (at most 100). */
  failureDetails: Schema.Array(TlsFailureDetail),
  /** Policies whose failure details exceed their failed-session count (at most 100). */
  failureDetailsExceedingTotal: Schema.Array(OverReported)
}
export type TlsAnalyst = Schema.Struct.Type<typeof tlsAnalystFields>

const SHOWN = 100

/** A failure as stored (Storable.ts); fields after `count` are kept for reports stored since they were. */
interface StoredFailure {
  readonly type: string
  readonly mx: string | null
  readonly count: number
  readonly reason?: string | null
  readonly sendingIp?: string | null
  readonly receivingIp?: string | null
  readonly helo?: string | null
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null)

/** The stored failures of a policy row; [] when the text cannot be read. */
export const failuresOf = (json: string): ReadonlyArray<StoredFailure> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  return parsed.flatMap((f: unknown) => {
    if (typeof f !== "object" || f === null) return []
    const o = f as Readonly<Record<string, unknown>>
    const count = o.count
    if (typeof o.type !== "string" || typeof count !== "number" || !Number.isSafeInteger(count)) return []
    return [
      {
        type: o.type,
        mx: text(o.mx),
        count,
        reason: text(o.reason),
        sendingIp: text(o.sendingIp),
        receivingIp: text(o.receivingIp),
        helo: text(o.helo)
      }
    ]
  })
}

export const tlsAnalyst = (policies: ReadonlyArray<TlsPolicyRow>): TlsAnalyst => {
  const details = new Map<string, number>()
  const over: Array<typeof OverReported.Type> = []
  for (const p of policies) {
    const failures = failuresOf(p.failures)
    let detailSessions = 0
    for (const f of failures) {
      detailSessions += f.count
      const key = JSON.stringify([
        f.type,
        f.reason ?? null,
        f.sendingIp ?? null,
        f.mx,
        f.helo ?? null,
        f.receivingIp ?? null
      ])
      details.set(key, (details.get(key) ?? 0) + f.count)
    }
    if (detailSessions > p.failed)
      over.push({
        reporter: p.reporter ?? "",
        reportId: p.report_id ?? "",
        policyType: p.policy_type,
        policyDomain: p.policy_domain,
        failedSessions: p.failed,
        detailSessions
      })
  }
  return {
    failureDetails: [...details]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, SHOWN)
      .map(([key, sessions]) => {
        const [resultType, reasonCode, sendingMtaIp, receivingMxHostname, receivingMxHelo, receivingIp] =
          JSON.parse(key) as [
            string,
            string | null,
            string | null,
            string | null,
            string | null,
            string | null
          ]
        return {
          resultType,
          reasonCode,
          sendingMtaIp,
          receivingMxHostname,
          receivingMxHelo,
          receivingIp,
          sessions
        }
      }),
    failureDetailsExceedingTotal: over
      .sort(
        (a, b) =>
          b.detailSessions - b.failedSessions - (a.detailSessions - a.failedSessions) ||
          a.reporter.localeCompare(b.reporter) ||
          a.reportId.localeCompare(b.reportId)
      )
      .slice(0, SHOWN)
  }
}
