/**
 * The NIS2 readiness scorecard (GET /scan/nis2): the scored check records of a scan (docs/scoring.md)
 * read as evidence for the measures of Article 21(2)(a)-(j) of Directive (EU) 2022/2555. Pure: the
 * same scan and language give the same scorecard. docs/nis2.md has the mapping and the rules:
 *
 * - An evidence item is one scored record: `pass` (points at least its `passAt` share), `missing`
 *   (it fails only for lack of the protection), `fail`, or `not-applicable`. A record the scan could
 *   not observe (`unknown`) is shown as `not-applicable` with a detail that says it could not be
 *   observed: it is left out of the score and never counted as missing.
 * - A measure's score is the weight of its passing items over the weight of its applicable,
 *   observed items. Items left out shrink the measure's effective weight in the total:
 *   weight x (applicable observed item weight / all item weight). Measures nobody can see from
 *   outside (a, f, i) weigh 0.
 * - `total` = floor(100 x sum(effective weight x score) / sum(effective weight)).
 * - A critical gap is a measure with an item whose record is fatal (DNSSEC bogus, SPF +all, a bad
 *   HTTPS certificate) or is a critical check that fails (docs/scoring.md's `critical` column).
 * - `status`: `unscannable` when the domain does not exist or nothing could be scored; else
 *   `non-compliant` below 50 or with a fatal finding; `compliant` from 90 with no critical gap and
 *   no critical check unobserved; `partial` otherwise.
 */
import { Schema } from "effect"
import { DateTime } from "../records/Schemas.ts"
import { type Domain, NormalDomain } from "../records/DomainName.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import type { IssueId } from "./Catalogue.ts"
import type { CheckRecord } from "./Model.ts"
import { fixText, issueTitle } from "./Nis2Fixes.ts"
import {
  ABSENCE_ISSUES,
  COMPLIANT_AT,
  type EvidenceSpec,
  MeasureIds,
  type MeasureSpec,
  MEASURES,
  measuresOf,
  NON_COMPLIANT_BELOW
} from "./Nis2Mapping.ts"
import { type Lang, MEASURE_TEXT, PHRASES, type Text } from "./Nis2Text.ts"
import { recordsOf } from "./Score.ts"
import { DKIM_NOT_FOUND } from "../checks/dkim/Rules.ts"
import { unscannableReason } from "./Scannable.ts"
import { registry } from "../checks/index.ts"
import { checksRun } from "../scan/StoredScan.ts"

const Percent = Schema.Int.pipe(Schema.between(0, 100))

export const MeasureId = Schema.Literal(...MeasureIds)

export const Nis2Evidence = Schema.Struct({
  checkId: Schema.String,
  label: Schema.String,
  result: Schema.Literal("pass", "fail", "missing", "not-applicable"),
  detail: Schema.String
})
export type Nis2Evidence = typeof Nis2Evidence.Type

export const Nis2Measure = Schema.Struct({
  id: MeasureId,
  label: Schema.String,
  description: Schema.String.annotations({ description: "the Directive's text of Article 21(2)(x)" }),
  /** What a domain scan can and cannot show of the measure. */
  scope: Schema.String,
  /** The measure's share of the total; 0 when it is not applicable. */
  weight: Schema.Int,
  /** The weight it carries in this scan, after evidence that does not apply or was not observed. */
  effectiveWeight: Schema.Number.pipe(Schema.finite(), Schema.nonNegative()),
  score: Percent,
  status: Schema.Literal("pass", "warning", "fail", "not-applicable"),
  evidence: Schema.Array(Nis2Evidence),
  fixes: Schema.Array(Schema.String)
})
export type Nis2Measure = typeof Nis2Measure.Type

export const Nis2Status = Schema.Literal("compliant", "partial", "non-compliant", "unscannable")
export type Nis2Status = typeof Nis2Status.Type

export const Nis2Scorecard = Schema.Struct({
  domain: NormalDomain,
  scannedAt: DateTime,
  total: Percent.annotations({ description: "0-100, weighted; means nothing when status is unscannable" }),
  status: Nis2Status,
  unscannable: Schema.NullOr(Schema.String).annotations({
    description:
      "Why the domain could not be judged (status unscannable), the same reason GET /scan/quick gives; null otherwise"
  }),
  measures: Schema.Array(Nis2Measure),
  criticalGaps: Schema.Array(MeasureId),
  caveat: Schema.String,
  /** Whether the scan behind it was served from the shared cache (as GET /scan/quick says). */
  cached: Schema.Boolean
})
export type Nis2Scorecard = typeof Nis2Scorecard.Type

interface Judged {
  readonly item: Nis2Evidence
  readonly weight: number
  /** Counts in the measure's score (observed and applicable). */
  readonly counted: boolean
  readonly passed: boolean
  readonly observed: boolean
  readonly criticalGap: boolean
  /** A finding so grave the score model gives grade F (docs/scoring.md "Grades and caps"). */
  readonly fatal: boolean
  /** A critical check the scan could not observe: it might hide a gap. */
  readonly criticalUnobserved: boolean
  readonly issues: ReadonlyArray<IssueId>
}

const titles = (issues: ReadonlyArray<IssueId>, lang: Lang) =>
  issues.map((id) => issueTitle(id, lang)).join("; ")

const judge = (spec: EvidenceSpec, record: CheckRecord | undefined, lang: Lang): Judged => {
  const text = spec.text
  const base = { checkId: spec.checkId, label: text.label[lang] }
  const left = (detail: Text, observed: boolean): Judged => ({
    item: { ...base, result: "not-applicable", detail: detail[lang] },
    weight: spec.weight,
    counted: false,
    passed: false,
    observed,
    criticalGap: false,
    fatal: false,
    criticalUnobserved: !observed && record?.critical === true,
    issues: []
  })
  if (record === undefined) return left(PHRASES.unknown, false)
  // DKIM's "no key under the selectors we know" is a search that found nothing (selectors cannot be
  // listed, RFC 6376 3.6.2.1), not a lookup that timed out: it is worded as such.
  if (record.status === "unknown")
    return record.detail !== DKIM_NOT_FOUND
      ? left(PHRASES.unknown, false)
      : left(
          {
            en: `${PHRASES.unsettled.en} ${record.detail}.`,
            nl: `${PHRASES.unsettled.nl} ${record.detail}.`
          },
          false
        )
  if (record.status === "not-applicable") return left(text.notApplicable, true)
  const issues = record.issues as ReadonlyArray<IssueId>
  const ratio = record.maxPoints === 0 ? 0 : record.points / record.maxPoints
  const passed = record.status === "pass" || (record.status === "partial" && ratio >= (spec.passAt ?? 1))
  const absent = issues.length > 0 && issues.every((id) => ABSENCE_ISSUES.has(id))
  const result = passed ? "pass" : absent && record.status === "fail" ? "missing" : "fail"
  const detail = passed
    ? issues.length === 0
      ? text.pass[lang]
      : `${text.pass[lang]} ${PHRASES.passWithRemarks[lang]} ${titles(issues, lang)}.`
    : `${(result === "missing" ? PHRASES.missing : PHRASES.fail)[lang]} ${titles(issues, lang)}.`
  return {
    item: { ...base, result, detail },
    weight: spec.weight,
    counted: true,
    passed,
    observed: true,
    criticalGap: record.fatal || (record.critical && record.status === "fail"),
    fatal: record.fatal,
    criticalUnobserved: false,
    issues
  }
}

const unobservable = (lang: Lang): Nis2Evidence => ({
  checkId: "not-observable",
  label: PHRASES.notObservableLabel[lang],
  result: "not-applicable",
  detail: PHRASES.notObservable[lang]
})

interface Scored {
  readonly measure: Nis2Measure
  /** Exact parts of the total: weight x passing / all item weight, and weight x counted / all. */
  readonly earned: number
  readonly possible: number
  readonly criticalGap: boolean
  readonly fatal: boolean
  readonly criticalUnobserved: boolean
}

const scoreMeasure = (spec: MeasureSpec, byId: ReadonlyMap<string, CheckRecord>, lang: Lang): Scored => {
  const text = MEASURE_TEXT[spec.id]
  const judged = spec.evidence.map((e) => judge(e, byId.get(e.checkId), lang))
  const all = judged.reduce((s, j) => s + j.weight, 0)
  const counted = judged.filter((j) => j.counted).reduce((s, j) => s + j.weight, 0)
  const passing = judged.filter((j) => j.passed).reduce((s, j) => s + j.weight, 0)
  const applies = spec.weight > 0 && counted > 0
  const score = applies ? Math.floor((100 * passing) / counted) : 0
  const criticalGap = applies && judged.some((j) => j.criticalGap)
  const unobserved = judged.some((j) => !j.observed)
  const status = !applies
    ? "not-applicable"
    : criticalGap || score < 50
      ? "fail"
      : score === 100 && !unobserved
        ? "pass"
        : "warning"
  const fixes = [...new Set(judged.flatMap((j) => j.issues))].map((id) => fixText(id, lang))
  return {
    measure: {
      id: spec.id,
      label: text.label[lang],
      description: text.description[lang],
      scope: text.scope[lang],
      weight: applies ? spec.weight : 0,
      effectiveWeight: applies ? Math.round((100 * spec.weight * counted) / all) / 100 : 0,
      score,
      status,
      evidence: judged.length === 0 ? [unobservable(lang)] : judged.map((j) => j.item),
      fixes: applies ? fixes : []
    },
    earned: applies ? (spec.weight * passing) / all : 0,
    possible: applies ? (spec.weight * counted) / all : 0,
    criticalGap,
    fatal: applies && judged.some((j) => j.fatal),
    // Not `applies`: a measure whose every item went unobserved may hide a gap just the same.
    criticalUnobserved: spec.weight > 0 && judged.some((j) => j.criticalUnobserved)
  }
}

/** Every measure without a verdict, each item saying why nothing could be observed. */
const unscannableMeasures = (
  measures: ReadonlyArray<MeasureSpec>,
  why: Text,
  lang: Lang
): Array<Nis2Measure> =>
  measures.map((spec) => {
    const text = MEASURE_TEXT[spec.id]
    return {
      id: spec.id,
      label: text.label[lang],
      description: text.description[lang],
      scope: text.scope[lang],
      weight: 0,
      effectiveWeight: 0,
      score: 0,
      status: "not-applicable",
      evidence:
        spec.evidence.length === 0
          ? [unobservable(lang)]
          : spec.evidence.map((e) => ({
              checkId: e.checkId,
              label: e.text.label[lang],
              result: "not-applicable" as const,
              detail: why[lang]
            })),
      fixes: []
    }
  })

export interface Nis2Meta {
  readonly domain: Domain
  readonly scannedAt: string
  readonly cached: boolean
  /** Why the scan cannot grade its domain (`Scannable.ts`), the score's own reason. */
  readonly unscannable?: string | null | undefined
}

/**
 * The scorecard of a scan's scored records (exported for the property tests). `measures` is the
 * mapping, a parameter so a test can drop a measure and compare.
 */
export const nis2FromRecords = (
  records: ReadonlyArray<CheckRecord>,
  meta: Nis2Meta,
  lang: Lang,
  measures: ReadonlyArray<MeasureSpec> = MEASURES
): Nis2Scorecard => {
  const byId = new Map(records.map((r) => [r.id, r]))
  const scored = measures.map((m) => scoreMeasure(m, byId, lang))
  const possible = scored.reduce((s, m) => s + m.possible, 0)
  const noSuchDomain = records.some((r) => r.issues.includes("dns_no_such_domain"))
  const base = {
    domain: meta.domain,
    scannedAt: meta.scannedAt,
    caveat: PHRASES.caveat[lang],
    cached: meta.cached
  }
  const unscannable =
    meta.unscannable ??
    (noSuchDomain
      ? `${meta.domain} does not exist (NXDOMAIN)`
      : possible === 0
        ? "no check that evidences a measure could be scored"
        : null)
  if (unscannable !== null) {
    const why = noSuchDomain ? PHRASES.noSuchDomain : PHRASES.nothingScored
    return {
      ...base,
      total: 0,
      status: "unscannable",
      unscannable,
      measures: unscannableMeasures(measures, why, lang),
      criticalGaps: []
    }
  }
  const earned = scored.reduce((s, m) => s + m.earned, 0)
  // The quotient of exact parts; the epsilon only absorbs floating-point noise in the sums.
  const total = Math.min(100, Math.floor((100 * earned) / possible + 1e-9))
  const criticalGaps = scored.filter((m) => m.criticalGap).map((m) => m.measure.id)
  const unsettled = scored.some((m) => m.criticalUnobserved)
  const status: Nis2Status =
    total < NON_COMPLIANT_BELOW || scored.some((m) => m.fatal)
      ? "non-compliant"
      : total >= COMPLIANT_AT && criticalGaps.length === 0 && !unsettled
        ? "compliant"
        : "partial"
  return { ...base, total, status, unscannable: null, measures: scored.map((m) => m.measure), criticalGaps }
}

/**
 * The NIS2 scorecard of a scan, in `lang`: over the checks the scan ran, so a stored scan made
 * before a check was added is judged on the evidence it had (StoredScan.ts).
 */
export const nis2Scorecard = (scan: ScanResult, lang: Lang): Nis2Scorecard => {
  const checks = checksRun(scan, registry)
  return nis2FromRecords(
    recordsOf(scan, checks),
    {
      domain: scan.domain,
      scannedAt: scan.computedAt,
      cached: scan.cached,
      unscannable: unscannableReason(scan)
    },
    lang,
    checks === registry ? MEASURES : measuresOf(checks)
  )
}

/** The part of a scorecard a report or PDF shows in its summary. */
export interface Nis2Summary {
  readonly total: number
  readonly status: Nis2Status
  readonly criticalGaps: ReadonlyArray<(typeof MeasureIds)[number]>
}

export const nis2Summary = (card: Nis2Scorecard): Nis2Summary => ({
  total: card.total,
  status: card.status,
  criticalGaps: card.criticalGaps
})
