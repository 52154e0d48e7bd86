/**
 * What the report page says about the report itself in the reader's language: the grade's word,
 * the headline, the section and finding names and what each fix regains. The report value (report/Everything.ts)
 * carries them in English for the API; a Dutch page builds its own from the same numbers, so both
 * say the same thing. The section names are declared with each check (`about.section.titleNl`), the
 * finding names with each issue (`Issues.ts`, `nl(...)`).
 * Pure.
 */
import type { EverythingReport, QuickScoreSection } from "../report/ReportSchema.ts"
import { concerns } from "../report/Sections.ts"
import { catalogue } from "../score/Catalogue.ts"
import { providerList, type Recommendation } from "../score/Fixes.ts"
import type { Lang } from "./Text.ts"

const GRADE_NL: Readonly<Record<string, string>> = {
  "A+": "Uitstekend",
  A: "Zeer goed",
  B: "Goed",
  C: "Redelijk",
  D: "Zwak",
  F: "Onvoldoende"
}

const UNSCANNABLE_NL = "Niet te beoordelen"

/** The word for a grade (`label` is the report's English one, which also says "Unscannable"). */
export const gradeWord = (grade: string, label: string, lang: Lang): string =>
  lang === "en" ? label : label === "Unscannable" ? UNSCANNABLE_NL : (GRADE_NL[grade] ?? label)

const TITLES_NL: ReadonlyMap<string, string> = new Map([
  ...concerns.map((c) => [c.key, c.titleNl] as const),
  ["nis2", "NIS2-gereedheid"]
])

/** A section's name: the report's (English) title, or the Dutch one its check declares. */
export const sectionTitle = (key: string, title: string, lang: Lang): string =>
  lang === "en" ? title : (TITLES_NL.get(key) ?? title)

/** A finding's name: the report's (English) title, or the Dutch one its check declares with the issue. */
export const findingTitle = (issueId: string, title: string, lang: Lang): string =>
  lang === "en" || !Object.hasOwn(catalogue, issueId) ? title : catalogue[issueId]!.nl.title

/** "Google, Yahoo en Microsoft": the providers as a Dutch reader names them. */
export const providersIn = (providers: Recommendation["requiredBy"], lang: Lang): string => {
  const english = providerList(providers)
  return lang === "en" ? english : english.replace(/ and ([^,]+)$/, " en $1")
}

/** What fixing it regains, in words a line can end with. */
export const fixImpact = (fix: Recommendation, unscannable: boolean, lang: Lang): string => {
  if (lang === "en") return fix.impact
  if (unscannable) return "maakt het domein te scannen en te beoordelen"
  return fix.points > 0
    ? `levert ${fix.points} punt${fix.points === 1 ? "" : "en"} op`
    : "heft een plafond of een risico zonder punten op"
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
  const fixes = quick.recommendations.length
  const severe = quick.recommendations.filter(
    (r) => r.priority === "critical" || r.priority === "high"
  ).length
  const toFix =
    fixes === 0
      ? "zonder verbeterpunten"
      : `met ${fixes} verbeterpunt${fixes === 1 ? "" : "en"}` +
        (severe === 0
          ? ""
          : fixes === 1
            ? " (kritiek of hoog)"
            : severe === fixes
              ? ", alle kritiek of hoog"
              : `, waarvan ${severe} kritiek of hoog`)
  const unfinished = summary.unknownChecks.length
  const notFinished =
    unfinished === 0
      ? ""
      : `; ${unfinished} controle${unfinished === 1 ? " kon" : "s konden"} niet worden afgerond`
  return `${domain} scoort ${summary.percentage}/100, cijfer ${summary.grade} (${gradeWord(summary.grade, summary.label, lang)}), ${toFix}${notFinished}.`
}
