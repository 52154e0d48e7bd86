/**
 * The score of a scan: categories, percentage, grade with its caps, issues and recommendations,
 * as one value that answers both of the SPEC's shapes (docs/scoring.md "Shapes A and B").
 * Pure: the same scan gives the same score.
 */
import { Schema } from "effect"
import { Categories, type Category, type Registered } from "../kernel/Check.ts"
import type { Entry, Outcomes } from "../kernel/Declaration.ts"
import { NO_SUCH_DOMAIN_FATAL, noSuchDomain } from "../checks/dns/Rules.ts"
import { registry as registered } from "../checks/index.ts"
import { DateTime } from "../records/Schemas.ts"
import { type Domain, NormalDomain } from "../records/DomainName.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { checksRun } from "../scan/StoredScan.ts"
import type { MailboxProvider } from "../checks/sender/Depends.ts"
import { catalogue, catalogueOf, Issue, type IssueId, issueOf } from "./Catalogue.ts"
import {
  type CategoryTotal,
  categoryTotals,
  CheckRecord,
  Grade,
  GradeInfo,
  inGradeBand,
  percentOf,
  scoringVersion
} from "./Model.ts"
import { gradeOf, unscannableGrade } from "./Grade.ts"
import { fixesOf, Recommendation, requiredByOf, unscannableFixes } from "./Fixes.ts"
import { recordsOfRulings, type Scored, scored, specsOf } from "./Rules.ts"
import { unscannableReason } from "./Scannable.ts"
import { DepthNote, depthNoteOf } from "./DepthNote.ts"

const Percent = Schema.Int.pipe(Schema.between(0, 100))

/** A category in both shapes: A's `{score 0-100, issues}` and B's `{maxScore, percentage, status, checks}`. */
export const CategoryScore = Schema.Struct({
  score: Percent.annotations({
    description: "0-100: the category's percentage (shape A; equals shape B's score with maxScore 100)"
  }),
  maxScore: Schema.Literal(100),
  percentage: Percent,
  /** The points behind the percentage: the sum over `checks`. */
  points: Schema.Int,
  maxPoints: Schema.Int,
  status: Schema.Literal("pass", "partial", "fail", "not-applicable"),
  issues: Schema.Int.annotations({ description: "shape A: how many issues this category produced" }),
  checks: Schema.Array(CheckRecord)
})
export type CategoryScore = typeof CategoryScore.Type

export { Recommendation } from "./Fixes.ts"

export const ScanScore = Schema.Struct({
  success: Schema.Boolean,
  domain: NormalDomain,
  timestamp: DateTime,
  scoringVersion: Schema.String,
  score: Percent,
  maxScore: Schema.Literal(100),
  percentage: Percent.annotations({
    description:
      "0-100, always inside the band of `grade` (A+ 100, A 90-99, B 80-89, C 70-79, D 50-69, F 0-49): a cap lowers both"
  }),
  points: Schema.Int,
  maxPoints: Schema.Int,
  grade: Grade,
  gradeInfo: GradeInfo,
  unscannable: Schema.NullOr(Schema.String).annotations({
    description:
      "Why the domain could not be graded (it does not exist, or no DNS question about it was answered): grade F, percentage 0. null when graded."
  }),
  categories: Schema.Struct(
    Object.fromEntries(Categories.map((c) => [c, CategoryScore])) as Record<Category, typeof CategoryScore>
  ),
  critical_issues: Schema.Int,
  warnings: Schema.Int,
  issues: Schema.Array(Issue),
  recommendations: Schema.Array(Recommendation),
  cached: Schema.Boolean,
  /**
   * Present for a shallow scan's score only (score/DepthNote.ts): its depth and the records it left out,
   * not checked at that depth. Such a score is partial: its grade is over the other records.
   */
  depth: Schema.optional(DepthNote)
})
export type ScanScore = typeof ScanScore.Type

/**
 * A domain that does not exist (its lookups answer NXDOMAIN): every check fails as "no such
 * domain" with its full points at stake; the score says so in `unscannable` (grade F, percentage 0).
 */
const noSuchDomainRecords = (registry: ReadonlyArray<Registered>): ReadonlyArray<Scored> =>
  specsOf(registry).map((spec) =>
    scored(spec, {
      status: "fail",
      detail: "no such domain (NXDOMAIN)",
      issues: ["dns_no_such_domain"],
      fatal: spec.id === NO_SUCH_DOMAIN_FATAL
    })
  )

/**
 * Every record of a scan, in category order: the rules of every registered check (`registry`; by
 * default those the scan ran: a stored scan is not judged by checks added since, StoredScan.ts).
 */
export const recordsOf = (
  scan: Pick<ScanResult, "checks" | "depth">,
  registry: ReadonlyArray<Registered> = checksRun(scan, registered)
): ReadonlyArray<Scored> => {
  const records =
    scan.checks["dns-records"].result !== null && noSuchDomain(scan.checks["dns-records"].result)
      ? noSuchDomainRecords(registry)
      : recordsOfRulings(registry.flatMap((c) => c.about.rules.judge(scan)))
  // A shallow scan's records of what it did not ask are not checked: left out, as a check not run.
  const left = new Set((depthNoteOf(scan.depth)?.notChecked ?? []).map((r) => r.id))
  return left.size === 0 ? records : records.filter((r) => !left.has(r.id))
}

/** A category's totals in both shapes (A's `{score, issues}`, B's `{maxScore, percentage, status, checks}`). */
const categoryScoreOf = (c: CategoryTotal<Scored>): CategoryScore => ({
  score: c.percentage,
  maxScore: 100 as const,
  percentage: c.percentage,
  points: c.points,
  maxPoints: c.maxPoints,
  status:
    c.maxPoints === 0
      ? "not-applicable"
      : c.percentage === 100
        ? "pass"
        : c.points === 0
          ? "fail"
          : "partial",
  issues: new Set(c.checks.flatMap((r) => r.issues)).size,
  checks: c.checks.map(({ category: _, ...r }) => r)
})

/** The score of records (exported for the property tests over generated records). */
export const scoreRecords = (
  records: ReadonlyArray<Scored>,
  meta: {
    readonly domain: Domain
    readonly timestamp: string
    readonly cached: boolean
    /** Why the scan cannot grade its domain (`Scannable.ts`), or null. */
    readonly unscannable?: string | null | undefined
  },
  /** Issues the checks found that cost no points of their own (the SPF and DMARC findings). */
  findings: ReadonlyArray<IssueId> = [],
  /** The catalogue the issue ids are entries of (the registry's). */
  entries: Readonly<Record<IssueId, Entry>> = catalogue,
  /** The mailbox providers whose sender requirements each issue fails (Fixes.ts `requiredByOf`). */
  requiredBy: ReadonlyMap<IssueId, ReadonlyArray<MailboxProvider>> = new Map()
): ScanScore => {
  const totals = categoryTotals(records)
  const points = totals.reduce((s, c) => s + c.points, 0)
  const maxPoints = totals.reduce((s, c) => s + c.maxPoints, 0)
  const unscannable = meta.unscannable ?? null
  // One verdict: a domain that cannot be graded says why, and no cap text (there is nothing to lift).
  const gradeInfo =
    unscannable === null ? gradeOf(records, percentOf(points, maxPoints)) : unscannableGrade(unscannable)
  const percentage = unscannable === null ? inGradeBand(gradeInfo.grade, percentOf(points, maxPoints)) : 0
  const ids = [...new Set([...records.flatMap((r) => r.issues as ReadonlyArray<IssueId>), ...findings])]
  const issues = ids.map((id) => issueOf(id, entries))
  const fixes = fixesOf(records, ids, entries, requiredBy)
  const recommendations = unscannable === null ? fixes : unscannableFixes(fixes)
  const categories = Object.fromEntries(totals.map((c) => [c.id, categoryScoreOf(c)])) as Record<
    Category,
    CategoryScore
  >
  return {
    success: true,
    domain: meta.domain,
    timestamp: meta.timestamp,
    scoringVersion,
    score: percentage,
    maxScore: 100,
    percentage,
    points,
    maxPoints,
    grade: gradeInfo.grade,
    gradeInfo,
    unscannable,
    categories,
    critical_issues: issues.filter((i) => i.severity === "critical" || i.severity === "high").length,
    warnings: issues.filter((i) => i.severity === "medium" || i.severity === "low").length,
    issues,
    recommendations,
    cached: meta.cached
  }
}

/**
 * The score of a scan, by the rules of `registry`'s checks (by default the registry's checks that
 * the scan ran: one stored before a check was added is scored as it was, StoredScan.ts).
 */
export const score = (
  scan: ScanResult,
  registry: ReadonlyArray<Registered> = checksRun(scan, registered)
): ScanScore => {
  const records = recordsOf(scan, registry)
  const nx = records.some((r) => r.issues.includes("dns_no_such_domain"))
  const outcomes: Readonly<Record<string, { readonly result: unknown } | undefined>> = scan.checks
  const findings = nx
    ? []
    : registry.flatMap((c) => {
        const result = outcomes[c.id]?.result
        return c.about.findings === undefined || result == null ? [] : c.about.findings(result)
      })
  const note = depthNoteOf(scan.depth)
  const scored = scoreRecords(
    records,
    {
      domain: scan.domain,
      timestamp: scan.computedAt,
      cached: scan.cached,
      unscannable: unscannableReason(scan)
    },
    findings,
    registry === registered ? catalogue : catalogueOf(registry),
    nx ? new Map() : requiredByOf(scan)
  )
  return note === undefined ? scored : { ...scored, depth: note }
}

/**
 * The email score of `GET /email/check`: the model's `email` category over the same rules, read from
 * the outcomes of the email checks (SPF, DMARC, DKIM, MTA-STS with TLS-RPT, BIMI). One model, not
 * two: for a domain, it equals `categories.email` of `GET /scan/quick` (docs/scoring.md).
 */
export const EmailCategoryScore = Schema.Struct({
  scoringVersion: Schema.String,
  category: Schema.Literal("email"),
  ...CategoryScore.fields,
  /** True when some check could not be judged (unknown) and left the total. */
  partial: Schema.Boolean
})
export type EmailCategoryScore = typeof EmailCategoryScore.Type

/**
 * The outcomes the email category's rules read, by check id: those of every registered check with
 * an `email` rule (SPF, DMARC, DKIM, MTA-STS with TLS-RPT, BIMI).
 */
export type EmailOutcomes = Outcomes

export const emailCategory = (
  checks: EmailOutcomes,
  registry: ReadonlyArray<Registered> = registered
): EmailCategoryScore => {
  const email = registry.filter((c) => c.about.rules.specs.some((s) => s.category === "email"))
  const records = recordsOfRulings(email.flatMap((c) => c.about.rules.judge({ checks })))
  const total = categoryTotals(records).find((c) => c.id === "email")!
  return {
    scoringVersion,
    category: "email",
    ...categoryScoreOf(total),
    partial: records.some((r) => r.status === "unknown")
  }
}
