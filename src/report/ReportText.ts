/**
 * What the PDF and the markdown report say around the findings, in English and Dutch: headings,
 * labels, the grade's word, each finding's title and description (declared with each issue,
 * `nl(...)`), and what a fix regains. The guidance itself comes in the same language from
 * `guidanceOf(id, domain, lang)`. The checks' own details (a rule's detail, a section's facts) are
 * written once, in English. Pure.
 */
import { catalogue } from "../score/Catalogue.ts"
import { providerList } from "../score/Fixes.ts"
import { gradeStatement } from "../score/Grade.ts"
import type { Lang } from "../score/Nis2Text.ts"
import type { Recommendation, ScanScore } from "../score/Score.ts"
import { checkSections, type EverythingReport, type QuickScoreSection } from "./ReportSchema.ts"

export type { Lang } from "../score/Nis2Text.ts"
export { recordTitle } from "../score/RecordTitle.ts"

const GRADE_NL: Readonly<Record<string, string>> = {
  "A+": "Uitstekend",
  A: "Zeer goed",
  B: "Goed",
  C: "Redelijk",
  D: "Zwak",
  F: "Onvoldoende"
}

/** The word for a grade (`label` is the score's English one, which also says "Unscannable"). */
export const gradeWord = (grade: string, label: string, lang: Lang): string =>
  lang === "en" ? label : label === "Unscannable" ? "Niet te beoordelen" : (GRADE_NL[grade] ?? label)

/** What a grade statement says: the description, and each cap that binds in a sentence. */
export interface Statement {
  readonly description: string
  readonly caps: ReadonlyArray<string>
}

/** A score's grade statement in `lang`: its own in English, built from its records in Dutch. */
export const scoreStatement = (s: ScanScore, lang: Lang): Statement =>
  lang === "en"
    ? s.gradeInfo
    : gradeStatement(
        Object.values(s.categories).flatMap((c) => c.checks),
        s,
        s.unscannable,
        lang
      )

/** A report's grade statement in `lang`: its own in English, built from its sections' records in Dutch. */
export const reportStatement = (report: EverythingReport, lang: Lang): Statement => {
  const quick = report.sections.quickScore as QuickScoreSection
  if (lang === "en") return quick.gradeInfo
  const records = [...checkSections(report.sections).values()].flatMap((section) => section.records)
  return gradeStatement(records, quick, report.summary.unscannable, lang)
}

/** A catalogue issue's title in `lang`; an id outside the catalogue keeps the title it came with. */
export const issueTitle = (id: string, title: string, lang: Lang): string =>
  lang === "en" || !Object.hasOwn(catalogue, id) ? title : catalogue[id]!.nl.title

/** A catalogue issue's description in `lang`; an id outside the catalogue keeps its own. */
export const issueDescription = (id: string, description: string, lang: Lang): string =>
  lang === "en" || !Object.hasOwn(catalogue, id) ? description : catalogue[id]!.nl.description

/** What fixing it regains, as the end of a sentence ("regains 10 points"). */
export const fixImpact = (fix: Pick<Recommendation, "impact" | "points">, lang: Lang): string =>
  lang === "en"
    ? fix.impact
    : fix.points > 0
      ? `levert ${fix.points} punt${fix.points === 1 ? "" : "en"} op`
      : "heft een plafond of een risico zonder punten op"

/** The sentence a fix adds when mailbox providers require it, or "" when none does. */
export const requiredBy = (fix: Pick<Recommendation, "requiredBy">, lang: Lang): string => {
  if (fix.requiredBy.length === 0) return ""
  const names = providerList(fix.requiredBy)
  return lang === "en"
    ? `${names} require${fix.requiredBy.length === 1 ? "s" : ""} this of bulk senders.`
    : `${names.replace(/ and ([^,]+)$/, " en $1")} ${fix.requiredBy.length === 1 ? "eist" : "eisen"} dit van bulkverzenders.`
}

/** The words of the PDF and the markdown. */
export interface ReportWords {
  readonly title: string
  readonly notGraded: string
  readonly grade: (grade: string, word: string) => string
  readonly scoreLine: (percentage: number, points: number, max: number) => string
  readonly counts: (critical: number, warnings: number) => string
  readonly scanned: (at: string, version: string) => string
  readonly categories: string
  readonly columns: {
    readonly category: string
    readonly status: string
    readonly points: string
    readonly score: string
    readonly issues: string
    readonly check: string
    readonly detail: string
  }
  readonly checks: string
  readonly foundBy: string
  readonly priority: (priority: string, impact: string) => string
  readonly noPoints: string
  readonly why: string
  readonly steps: string
  readonly record: string
  readonly generated: string
  readonly sources: string
  readonly whatToFix: (n: number) => string
  readonly nothingToFix: string
  readonly fixOrder: string
  readonly forInformation: (n: number) => string
  readonly nis2: string
  readonly nis2Missing: string
  readonly readiness: (total: number) => string
  readonly noGaps: string
  readonly criticalGaps: string
  readonly page: (domain: string, page: number, of: number) => string
  readonly status: Readonly<Record<string, string>>
  readonly severity: Readonly<Record<string, string>>
  /** The NIS2 scorecard's status as a label that claims no compliance (docs/nis2.md). */
  readonly readinessLabel: Readonly<Record<string, string>>
}

const en: ReportWords = {
  title: "Domain security report",
  notGraded: "Not graded",
  grade: (grade, word) => `Grade ${grade}: ${word}`,
  scoreLine: (percentage, points, max) => `Score ${percentage} / 100 (${points} of ${max} points)`,
  counts: (critical, warnings) => `Critical and high issues: ${critical}. Warnings: ${warnings}.`,
  scanned: (at, version) => `Scanned ${at}, scoring version ${version}`,
  categories: "Categories",
  columns: {
    category: "Category",
    status: "Status",
    points: "Points",
    score: "Score",
    issues: "Issues",
    check: "Check",
    detail: "Detail"
  },
  checks: "Checks",
  foundBy: "Found by",
  priority: (priority, impact) => `priority ${priority}, fixing it ${impact}`,
  noPoints: "no points at stake",
  why: "Why it matters",
  steps: "What to do",
  record: "Record",
  generated: "Generated by this service",
  sources: "Sources",
  whatToFix: (n) => `What to fix (${n})`,
  nothingToFix: "Nothing to fix: every scored check passes.",
  fixOrder: "Most points regained first, then the most severe.",
  forInformation: (n) => `For information (${n})`,
  nis2: "NIS2 readiness",
  nis2Missing: "The NIS2 readiness summary is not available for this report.",
  readiness: (total) => `Readiness: ${total} / 100.`,
  noGaps: "No critical gaps.",
  criticalGaps: "Critical gaps:",
  page: (domain, page, of) => `${domain} - page ${page} of ${of}`,
  status: { pass: "pass", partial: "partial", fail: "fail", unknown: "unknown", "not-applicable": "n/a" },
  severity: { critical: "CRITICAL", high: "HIGH", medium: "MEDIUM", low: "LOW", info: "INFO" },
  readinessLabel: {
    compliant: "all met",
    partial: "partly met",
    "non-compliant": "gaps",
    unscannable: "unscannable"
  }
}

/** A fix's priority (the severity words of the catalogue) in Dutch. */
const PRIORITY_NL: Readonly<Record<string, string>> = {
  critical: "kritiek",
  high: "hoog",
  medium: "middel",
  low: "laag",
  info: "informatie"
}

const nl: ReportWords = {
  title: "Beveiligingsrapport van een domein",
  notGraded: "Geen cijfer",
  grade: (grade, word) => `Cijfer ${grade}: ${word}`,
  scoreLine: (percentage, points, max) => `Score ${percentage} / 100 (${points} van ${max} punten)`,
  counts: (critical, warnings) => `Kritieke en hoge bevindingen: ${critical}. Waarschuwingen: ${warnings}.`,
  scanned: (at, version) => `Gescand op ${at}, scoreversie ${version}`,
  categories: "Categorieën",
  columns: {
    category: "Categorie",
    status: "Status",
    points: "Punten",
    score: "Score",
    issues: "Bevindingen",
    check: "Controle",
    detail: "Toelichting"
  },
  checks: "Controles",
  foundBy: "Gevonden door",
  priority: (priority, impact) => `prioriteit ${PRIORITY_NL[priority] ?? priority}, herstel ${impact}`,
  noPoints: "er staan geen punten op het spel",
  why: "Waarom het ertoe doet",
  steps: "Wat te doen",
  record: "Record",
  generated: "Deze dienst schrijft het",
  sources: "Bronnen",
  whatToFix: (n) => `Wat te verbeteren (${n})`,
  nothingToFix: "Niets te verbeteren: elke controle met punten is geslaagd.",
  fixOrder: "Wat de meeste punten oplevert eerst, daarna het ernstigste.",
  forInformation: (n) => `Ter informatie (${n})`,
  nis2: "NIS2-gereedheid",
  nis2Missing: "De samenvatting van de NIS2-gereedheid is voor dit rapport niet beschikbaar.",
  readiness: (total) => `Gereedheid: ${total} / 100.`,
  noGaps: "Geen kritieke tekortkomingen.",
  criticalGaps: "Kritieke tekortkomingen:",
  page: (domain, page, of) => `${domain} - pagina ${page} van ${of}`,
  status: {
    pass: "geslaagd",
    partial: "deels",
    fail: "onvoldoende",
    unknown: "onbekend",
    "not-applicable": "n.v.t."
  },
  severity: { critical: "KRITIEK", high: "HOOG", medium: "MIDDEL", low: "LAAG", info: "INFO" },
  readinessLabel: {
    compliant: "alles gehaald",
    partial: "deels gehaald",
    "non-compliant": "tekortkomingen",
    unscannable: "niet te scannen"
  }
}

/** The words of `lang`. */
export const reportWords = (lang: Lang): ReportWords => (lang === "nl" ? nl : en)

/** What the headline of a graded domain says: its grade, what to fix, the checks that did not finish. */
export interface Graded {
  readonly domain: string
  readonly percentage: number
  readonly grade: string
  /** The grade's word in the headline's language. */
  readonly word: string
  readonly recommendations: ReadonlyArray<Pick<Recommendation, "priority">>
  readonly unfinished: number
}

/** The headline's words: the things to fix, how many of them critical or high, the checks unfinished. */
interface HeadlineWords {
  readonly nothingToFix: string
  readonly toFix: (n: number) => string
  readonly severe: { readonly theOne: string; readonly all: string; readonly some: (n: number) => string }
  readonly unfinished: (n: number) => string
  readonly sentence: (g: Graded, toFix: string, unfinished: string) => string
}

const headlineWords: Readonly<Record<Lang, HeadlineWords>> = {
  en: {
    nothingToFix: "with nothing to fix",
    toFix: (n) => `with ${n} thing${n === 1 ? "" : "s"} to fix`,
    severe: {
      theOne: " (critical or high)",
      all: ", all critical or high",
      some: (n) => `, ${n} of them critical or high`
    },
    unfinished: (n) => `; ${n} check${n === 1 ? "" : "s"} could not finish`,
    sentence: (g, toFix, unfinished) =>
      `${g.domain} scores ${g.percentage}/100, grade ${g.grade} (${g.word}), ${toFix}${unfinished}.`
  },
  nl: {
    nothingToFix: "zonder verbeterpunten",
    toFix: (n) => `met ${n} verbeterpunt${n === 1 ? "" : "en"}`,
    severe: {
      theOne: " (kritiek of hoog)",
      all: ", alle kritiek of hoog",
      some: (n) => `, waarvan ${n} kritiek of hoog`
    },
    unfinished: (n) => `; ${n} controle${n === 1 ? " kon" : "s konden"} niet worden afgerond`,
    sentence: (g, toFix, unfinished) =>
      `${g.domain} scoort ${g.percentage}/100, cijfer ${g.grade} (${g.word}), ${toFix}${unfinished}.`
  }
}

/** The headline of a graded domain in `lang`: the report's (English) and its Dutch rendering say the same. */
export const graded = (lang: Lang, g: Graded): string => {
  const w = headlineWords[lang]
  const fixes = g.recommendations.length
  const severe = g.recommendations.filter((r) => r.priority === "critical" || r.priority === "high").length
  const toFix =
    fixes === 0
      ? w.nothingToFix
      : w.toFix(fixes) +
        (severe === 0
          ? ""
          : fixes === 1
            ? w.severe.theOne
            : severe === fixes
              ? w.severe.all
              : w.severe.some(severe))
  return w.sentence(g, toFix, g.unfinished === 0 ? "" : w.unfinished(g.unfinished))
}

/** The first sentence a reader reads: the report's headline, or the same said in Dutch. */
export const headline = (report: EverythingReport, lang: Lang): string => {
  const { summary, domain } = report
  if (lang === "en") return summary.headline
  if (summary.unscannable !== null) {
    const nx = `${domain} does not exist (NXDOMAIN)`
    const reason = summary.unscannable === nx ? `${domain} bestaat niet (NXDOMAIN)` : summary.unscannable
    return `${domain} kon niet worden beoordeeld: ${reason}.`
  }
  const quick = report.sections.quickScore as QuickScoreSection
  if (quick.maxPoints === 0)
    return `${domain} kon niet worden beoordeeld: geen enkele controle kwam tot een oordeel (zie elk onderdeel).`
  return graded("nl", {
    domain,
    percentage: summary.percentage,
    grade: summary.grade,
    word: gradeWord(summary.grade, summary.label, lang),
    recommendations: quick.recommendations,
    unfinished: summary.unknownChecks.length
  })
}
