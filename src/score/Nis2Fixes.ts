/**
 * The fixes of the NIS2 scorecard: the issue catalogue's entries (`Catalogue.ts`) as one line each,
 * in the scorecard's language. Each check declares its issues' Dutch beside the English
 * (`checks/<check>/Issues.ts`, `nl(...)`); `test/score/nis2Text.test.ts` checks that none is empty.
 */
import { catalogue, type IssueId } from "./Catalogue.ts"
import type { Lang } from "./Nis2Text.ts"

/** The issue's title and description in a language. */
const textOf = (id: IssueId, lang: Lang) => {
  const entry = catalogue[id]!
  return lang === "nl" ? entry.nl : entry
}

/** The title of an issue in a language. */
export const issueTitle = (id: IssueId, lang: Lang): string => textOf(id, lang).title

/** One fix line: the issue's title and description, and its id (the key of /ai/fix and docs/issues.md). */
export const fixText = (id: IssueId, lang: Lang): string => {
  const text = textOf(id, lang)
  return `${text.title} (${id}): ${text.description}`
}
