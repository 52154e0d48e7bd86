/**
 * Whether a report can be believed to come from who it says (docs/reports-in.md "Authenticity").
 * Anyone can mail a report "from google.com"; a report that arrives by mail is trusted when the
 * message passes DMARC for its From domain (RFC 7489: SPF for the connecting address and MAIL
 * FROM, or DKIM, aligned with the From domain), a report posted over HTTP when it carries an API
 * key with `reports:write`. The verdict is stored with the report and counted in the summaries.
 */
import { Schema } from "effect"
import { Nullable } from "../records/Schemas.ts"
import type { AuthenticityColumns } from "../store/ReportAuthenticity.ts"

export const Authenticity = Schema.Struct({
  /** The report's message passed DMARC for its From domain, or it was posted with an API key. */
  authenticated: Schema.Boolean,
  /** The domain it was authenticated for (the From domain); null when not authenticated, or by a key. */
  authenticatedFor: Nullable(Schema.String),
  /** How it was authenticated, or why not ("no DKIM signature and SPF softfail for 192.0.2.1"). */
  authentication: Schema.String
})
export type Authenticity = typeof Authenticity.Type

/** A verdict as the store's columns keep it, beside the report or the message kept apart. */
export const authenticityColumns = (verdict: Authenticity): AuthenticityColumns => ({
  authenticated: verdict.authenticated ? 1 : 0,
  authenticated_for: verdict.authenticatedFor,
  authentication: verdict.authentication
})

/** A report posted over HTTP by whoever could, while no API key exists (the embedded default). */
export const ANONYMOUS_POST: Authenticity = {
  authenticated: false,
  authenticatedFor: null,
  authentication: "posted over HTTP without an API key"
}

/** A report posted over HTTP with an API key holding `reports:write`, or from the machine itself. */
export const postedWith = (who: string): Authenticity => ({
  authenticated: true,
  authenticatedFor: null,
  authentication: `posted over HTTP ${who}`
})

/**
 * Who sent a period's aggregate reports, as far as can be told, and what the DMARC summary's
 * `readyForReject` rests on: the authenticated reports alone when any exist for the period (a
 * forged report "from google.com" then cannot move the verdict), all reports otherwise.
 */
export const ReportAuthenticity = Schema.Struct({
  authenticatedReports: Schema.Int,
  unauthenticatedReports: Schema.Int,
  /** Reporters with at least one authenticated report in the period, and those without any. */
  authenticatedReporters: Schema.Array(Schema.String),
  unauthenticatedReporters: Schema.Array(Schema.String),
  verdictFrom: Schema.Literal("authenticated reports", "all reports"),
  note: Schema.String
})
export type ReportAuthenticity = typeof ReportAuthenticity.Type

/** Reporter names by verdict, and how many reports each side holds. Pure. */
export const reportAuthenticity = (
  rows: ReadonlyArray<{ readonly authenticated: number; readonly reporter: string; readonly reports: number }>
): ReportAuthenticity => {
  const yes = new Set<string>()
  const all = new Set<string>()
  let authenticatedReports = 0
  let unauthenticatedReports = 0
  for (const r of rows) {
    all.add(r.reporter)
    if (r.authenticated === 1) {
      yes.add(r.reporter)
      authenticatedReports += r.reports
    } else unauthenticatedReports += r.reports
  }
  const onlyAuthenticated = authenticatedReports > 0 && unauthenticatedReports > 0
  return {
    authenticatedReports,
    unauthenticatedReports,
    authenticatedReporters: [...yes].sort(),
    unauthenticatedReporters: [...all].filter((r) => !yes.has(r)).sort(),
    verdictFrom: authenticatedReports > 0 ? "authenticated reports" : "all reports",
    note: onlyAuthenticated
      ? `readyForReject rests on the ${authenticatedReports} authenticated report(s) only; ${unauthenticatedReports} unauthenticated report(s) are counted in the totals but cannot move the verdict.`
      : authenticatedReports > 0
        ? "Every report of the period is authenticated."
        : unauthenticatedReports > 0
          ? "No report of the period is authenticated (mailed without DMARC pass for its sender, or posted without an API key): the verdict rests on reports anyone could have sent."
          : "No report covers this period."
  }
}
