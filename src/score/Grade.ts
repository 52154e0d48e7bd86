/**
 * The grade of a set of records and the statement that explains it (docs/scoring.md): the band of
 * the percentage, then the caps. A cap is named only when it binds (it holds the grade below what
 * the points alone give), worded as what lifts it and to which grade.
 *
 * The facts are decided once (`gradeFactsOf`) and worded in English, as the score's `gradeInfo`
 * carries them, or in Dutch, as a Dutch page, PDF or markdown reads them. The checks' details
 * inside a cap stay as the checks wrote them (in English). Pure.
 */
import type { Lang } from "../kernel/Nis2Evidence.ts"
import {
  bandOf,
  type CheckRecord,
  type Grade,
  type GradeInfo,
  gradeLabels,
  gradeRank,
  inGradeBand,
  lowerGrade,
  percentOf
} from "./Model.ts"
import { inRecordOrder, recordTitle } from "./RecordTitle.ts"

/** What holds a grade down, as facts to word. */
export type Cap =
  /** Fatal findings: F, lifted to `lifts` when they are fixed. */
  | { readonly kind: "fatal"; readonly records: ReadonlyArray<CheckRecord>; readonly lifts: Grade }
  /** Failed critical checks: B for one, C for two or more. */
  | { readonly kind: "critical"; readonly records: ReadonlyArray<CheckRecord>; readonly lifts: Grade }
  /** 100 % but A: critical checks or others could not be verified (one record per title). */
  | { readonly kind: "unverified"; readonly records: ReadonlyArray<CheckRecord> }
  /** No check could be scored at all: F. */
  | { readonly kind: "unscored" }

export interface GradeFacts {
  readonly grade: Grade
  /** The band of the points' percentage alone. */
  readonly band: Grade
  readonly percentage: number
  /** Every cap that binds, in the order the statement names them. */
  readonly caps: ReadonlyArray<Cap>
}

/** The grade of `records` at `percentage` (their points' share), and what binds it. */
export const gradeFactsOf = (records: ReadonlyArray<CheckRecord>, percentage: number): GradeFacts => {
  const band = bandOf(percentage)
  const fatal = records.filter((r) => r.fatal)
  const criticalFails = records.filter((r) => r.critical && r.status === "fail" && !r.fatal)
  const criticalCap: Grade | null = criticalFails.length >= 2 ? "C" : criticalFails.length === 1 ? "B" : null
  /** The grade under the caps left in place: lifting one shows what fixing it gives. */
  const under = (fatalCap: boolean, critical: boolean): Grade => {
    const withFatal = fatalCap && fatal.length > 0 ? lowerGrade(band, "F") : band
    return critical && criticalCap !== null ? lowerGrade(withFatal, criticalCap) : withFatal
  }
  let grade: Grade = under(true, true)
  const caps: Array<Cap> = []
  // A cap binds when the grade without it would be higher than the grade with every cap.
  const withoutFatal = under(false, true)
  if (gradeRank(withoutFatal) > gradeRank(grade))
    caps.push({ kind: "fatal", records: fatal, lifts: withoutFatal })
  const withoutCritical = under(true, false)
  if (gradeRank(withoutCritical) > gradeRank(grade))
    caps.push({ kind: "critical", records: criticalFails, lifts: withoutCritical })
  if (percentage === 100 && grade === "A") {
    const criticalUnsettled = records.filter(
      (r) => r.critical && r.status !== "pass" && r.status !== "not-applicable"
    )
    const unknown = records.filter((r) => r.status === "unknown")
    if (criticalUnsettled.length === 0 && unknown.length === 0) grade = "A+"
    else {
      const byTitle = new Map<string, CheckRecord>()
      for (const r of [...criticalUnsettled, ...unknown]) if (!byTitle.has(r.title)) byTitle.set(r.title, r)
      caps.push({ kind: "unverified", records: [...byTitle.values()] })
    }
  }
  if (records.every((r) => r.maxPoints === 0)) {
    grade = "F"
    caps.push({ kind: "unscored" })
  }
  return { grade, band, percentage, caps }
}

interface Words {
  readonly and: string
  readonly cap: (cap: Cap, title: (r: CheckRecord) => string) => string
  readonly plain: (grade: Grade, percentage: number) => string
  readonly banded: (percentage: number, band: Grade) => string
  readonly lowered: (reported: number, grade: Grade) => string
  readonly notGraded: (reason: string) => string
}

/** "A", "A and B", "A, B and C": names as a sentence lists them. */
const listed = (names: ReadonlyArray<string>, and: string): string =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} ${and} ${names.at(-1)}`

const en: Words = {
  and: "and",
  cap: (cap, title) => {
    switch (cap.kind) {
      case "fatal":
        return `Capped at F: ${listed(
          cap.records.map((r) => `${title(r)} (${r.detail})`),
          "and"
        )}. Fixing ${cap.records.length === 1 ? "it" : "them"} lifts the grade to ${cap.lifts}.`
      case "critical": {
        const [first] = cap.records
        if (cap.records.length === 1)
          return `Capped at B: the critical check ${title(first!)} fails (${first!.detail}). Fixing it lifts the grade to ${cap.lifts}.`
        const toB = cap.lifts === "B"
        return `Capped at C: ${cap.records.length} critical checks fail (${listed(cap.records.map(title), "and")}). ${toB ? "" : "Fixing all but one lifts the cap to B; "}${toB ? "Fixing" : "fixing"} all of them lifts the grade to ${cap.lifts}.`
      }
      case "unverified":
        return `A, not A+: ${listed(cap.records.map(title), "and")} could not be verified. A scan that answers ${cap.records.length === 1 ? "it" : "them"} can give A+.`
      case "unscored":
        return "Grade F: no check could be scored (every one unknown or not applicable). A scan that answers them lifts it."
    }
  },
  plain: (grade, percentage) =>
    `${grade}: ${percentage} % of the applicable points${grade === "A+" ? ", every critical check passing" : ""}.`,
  banded: (percentage, band) => `${percentage} % of the applicable points is band ${band}.`,
  lowered: (reported, grade) => ` It is reported as ${reported} %, inside band ${grade}.`,
  notGraded: (reason) => `Not graded: ${reason}.`
}

const nl: Words = {
  and: "en",
  cap: (cap, title) => {
    switch (cap.kind) {
      case "fatal":
        return `Begrensd op F: ${listed(
          cap.records.map((r) => `${title(r)} (${r.detail})`),
          "en"
        )}. Wie ${cap.records.length === 1 ? "dit" : "deze"} herstelt, brengt het cijfer naar ${cap.lifts}.`
      case "critical": {
        const [first] = cap.records
        if (cap.records.length === 1)
          return `Begrensd op B: de kritieke controle ${title(first!)} faalt (${first!.detail}). Wie die herstelt, brengt het cijfer naar ${cap.lifts}.`
        const toB = cap.lifts === "B"
        return `Begrensd op C: ${cap.records.length} kritieke controles falen (${listed(cap.records.map(title), "en")}). ${toB ? "" : "Wie alle op één na herstelt, tilt de grens naar B; "}${toB ? "Wie" : "wie"} ze allemaal herstelt, brengt het cijfer naar ${cap.lifts}.`
      }
      case "unverified":
        return `A, geen A+: ${listed(cap.records.map(title), "en")} ${cap.records.length === 1 ? "kon" : "konden"} niet worden geverifieerd. Een scan die ${cap.records.length === 1 ? "die controle" : "die controles"} beantwoordt, kan A+ geven.`
      case "unscored":
        return "Cijfer F: geen enkele controle kon worden gescoord (alle onbekend of niet van toepassing). Een scan die ze beantwoordt, tilt het op."
    }
  },
  plain: (grade, percentage) =>
    `${grade}: ${percentage} % van de toepasselijke punten${grade === "A+" ? ", elke kritieke controle geslaagd" : ""}.`,
  banded: (percentage, band) => `${percentage} % van de toepasselijke punten valt in band ${band}.`,
  lowered: (reported, grade) => ` Het wordt gemeld als ${reported} %, binnen band ${grade}.`,
  notGraded: (reason) => `Geen cijfer: ${reason}.`
}

/** The statement of `facts` in `lang`: the description, and each binding cap in a sentence. */
export const statementOf = (
  facts: GradeFacts,
  lang: Lang
): { readonly description: string; readonly caps: ReadonlyArray<string> } => {
  const w = lang === "nl" ? nl : en
  const caps = facts.caps.map((cap) => w.cap(cap, (r) => recordTitle(r.id, r.title, lang)))
  const reported = inGradeBand(facts.grade, facts.percentage)
  const lowered = reported < facts.percentage ? w.lowered(reported, facts.grade) : ""
  const description =
    caps.length === 0
      ? w.plain(facts.grade, facts.percentage)
      : `${w.banded(facts.percentage, facts.band)} ${caps.join(" ")}${lowered}`
  return { description, caps }
}

/** The grade of a set of records, with its statement in English: the score's `gradeInfo`. */
export const gradeOf = (records: ReadonlyArray<CheckRecord>, percentage: number): GradeInfo => {
  const facts = gradeFactsOf(records, percentage)
  return { grade: facts.grade, label: gradeLabels[facts.grade], ...statementOf(facts, "en") }
}

/** The grade of a domain that cannot be graded: F with the reason, and no caps to lift. */
export const unscannableGrade = (reason: string): GradeInfo => ({
  grade: "F",
  label: "Unscannable",
  description: en.notGraded(reason),
  caps: []
})

/**
 * The grade statement of records a report carries, in `lang`: the score's own in English, built
 * from the same records and points in Dutch (their percentage of the applicable points, before any
 * cap lowered it into the grade's band).
 */
export const gradeStatement = (
  records: ReadonlyArray<CheckRecord>,
  points: { readonly points: number; readonly maxPoints: number },
  unscannable: string | null,
  lang: Lang
): { readonly description: string; readonly caps: ReadonlyArray<string> } => {
  if (unscannable !== null) return { description: (lang === "nl" ? nl : en).notGraded(unscannable), caps: [] }
  const percentage = percentOf(points.points, points.maxPoints)
  return statementOf(gradeFactsOf(inRecordOrder(records), percentage), lang)
}
