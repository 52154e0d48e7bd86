/**
 * What the report page says about the report itself in the reader's language: the grade's word,
 * the headline, the section and finding names and what each fix regains. The report value (report/Everything.ts)
 * carries them in English for the API; a Dutch page builds its own from the same numbers, so both
 * say the same thing. The section names are declared with each check (`about.section.titleNl`), the
 * finding names with each issue (`Issues.ts`, `nl(...)`).
 * Pure.
 */
import { concerns } from "../report/Sections.ts"
import { catalogue } from "../score/Catalogue.ts"
import { providerList, type Recommendation } from "../score/Fixes.ts"
import type { Lang } from "./Text.ts"

export { gradeWord, headline, recordTitle, reportStatement } from "../report/ReportText.ts"

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
