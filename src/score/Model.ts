/**
 * The scoring model, over check records (pure, no I/O). See docs/scoring.md for the rules.
 *
 * - A record is one scored check: `points` of `maxPoints`. `not-applicable` and `unknown` records
 *   carry 0 of 0, so an unreachable target never scores as absent (internet.nl leaves NOT_TESTED out).
 * - A category's percentage is floor(100 * points / maxPoints); the overall percentage is over the
 *   sum of every category's points, so the point budgets are the weights (docs/scoring.md).
 * - The letter comes from the SPEC bands, then caps are applied, SSL Labs style: a fatal finding
 *   gives F, one failed critical check caps at B, two or more cap at C, and A+ needs 100 % with every
 *   critical check passing and no check unknown.
 */
import { Schema } from "effect"
import { Categories, type Category } from "../kernel/Check.ts"
import { Level, RecordStatus } from "../kernel/Declaration.ts"

/** The model's version: a result says which rules produced it (HTTP Observatory's algorithmVersion). */
export const scoringVersion = "2026.2"

// Declared with the rules that produce them (kernel/Declaration.ts); the score's records carry them.
export { Level, RecordStatus } from "../kernel/Declaration.ts"

export const CheckRecord = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  status: RecordStatus,
  points: Schema.Int,
  maxPoints: Schema.Int,
  level: Level,
  critical: Schema.Boolean,
  /** A finding so grave the grade is F whatever the points (DNSSEC bogus, SPF +all, bad HTTPS cert). */
  fatal: Schema.Boolean,
  detail: Schema.String,
  /** Catalogue ids of what this check found wrong (empty when it passes). */
  issues: Schema.Array(Schema.String)
})
export type CheckRecord = typeof CheckRecord.Type

export const Grade = Schema.Literal("A+", "A", "B", "C", "D", "F")
export type Grade = typeof Grade.Type
const ORDER: ReadonlyArray<Grade> = ["F", "D", "C", "B", "A", "A+"]
export const gradeRank = (g: Grade): number => ORDER.indexOf(g)
/** The lower of two grades. */
export const lowerGrade = (a: Grade, b: Grade): Grade => (gradeRank(a) <= gradeRank(b) ? a : b)

/** Builds a record, keeping the invariants: unscored statuses carry 0 of 0, points within 0..max. */
export const record = (
  base: Omit<CheckRecord, "points" | "fatal" | "issues" | "status"> & {
    readonly status: RecordStatus
    readonly points?: number | undefined
    readonly fatal?: boolean | undefined
    readonly issues?: ReadonlyArray<string> | undefined
  }
): CheckRecord => {
  const scored = base.status !== "not-applicable" && base.status !== "unknown"
  const maxPoints = scored ? base.maxPoints : 0
  const points =
    base.status === "pass"
      ? maxPoints
      : base.status === "partial"
        ? Math.max(0, Math.min(maxPoints, base.points ?? 0))
        : 0
  return {
    ...base,
    maxPoints,
    points,
    fatal: base.fatal ?? false,
    issues: base.status === "pass" ? [] : [...(base.issues ?? [])]
  }
}

/** floor(100 * points / max); nothing scored is 0 (and the category says `not-applicable`). */
export const percentOf = (points: number, maxPoints: number): number =>
  maxPoints === 0 ? 0 : Math.floor((100 * points) / maxPoints)

/** The letter of a percentage (SPEC bands; A+ is decided with the caps). */
export const bandOf = (percentage: number): Grade =>
  percentage >= 90 ? "A" : percentage >= 80 ? "B" : percentage >= 70 ? "C" : percentage >= 50 ? "D" : "F"

/** The highest percentage of each grade's band (SPEC: A+ 100, A 90-99, B 80-89, C 70-79, D 50-69, F 0-49). */
const BAND_TOP: Record<Grade, number> = { "A+": 100, A: 99, B: 89, C: 79, D: 69, F: 49 }

/**
 * The percentage a scan reports for `grade`: its points' percentage, lowered into the grade's band
 * when a cap put the grade below the points' band. A cap thus lowers both, and sorting by
 * percentage sorts by grade: a bogus DNSSEC zone (F, which validating resolvers cannot resolve at
 * all) never sorts above a healthy unsigned one. The grade is never above the points' band, so
 * the percentage only ever moves down.
 */
export const inGradeBand = (grade: Grade, percentage: number): number => Math.min(percentage, BAND_TOP[grade])

export const GradeInfo = Schema.Struct({
  grade: Grade,
  label: Schema.String,
  description: Schema.String,
  /** Every cap applied, in words, with what would lift it. */
  caps: Schema.Array(Schema.String)
})
export type GradeInfo = typeof GradeInfo.Type

/** Each grade's word, in English (report/ReportText.ts has the Dutch). */
export const gradeLabels: Readonly<Record<Grade, string>> = {
  "A+": "Excellent",
  A: "Very good",
  B: "Good",
  C: "Fair",
  D: "Poor",
  F: "Failing"
}

/**
 * The grade scale, best first: each grade's label and the band of percentages it holds (SPEC). A+
 * is A's band at 100 with no cap applied; a cap can lower any grade (docs/scoring.md).
 */
export const gradeScale: ReadonlyArray<{
  readonly grade: Grade
  readonly label: string
  readonly minPercentage: number
  readonly maxPercentage: number
}> = [...ORDER].reverse().map((grade) => ({
  grade,
  label: gradeLabels[grade],
  minPercentage: grade === "F" ? 0 : BAND_TOP[ORDER[gradeRank(grade) - 1]!] + 1,
  maxPercentage: BAND_TOP[grade]
}))

export interface CategoryTotal<R> {
  readonly id: Category
  readonly points: number
  readonly maxPoints: number
  readonly percentage: number
  readonly checks: ReadonlyArray<R>
}

export const categoryTotals = <R extends CheckRecord & { readonly category: Category }>(
  records: ReadonlyArray<R>
): ReadonlyArray<CategoryTotal<R>> =>
  Categories.map((id) => {
    const checks = records.filter((r) => r.category === id)
    const points = checks.reduce((s, r) => s + r.points, 0)
    const maxPoints = checks.reduce((s, r) => s + r.maxPoints, 0)
    return { id, points, maxPoints, percentage: percentOf(points, maxPoints), checks }
  })
