/**
 * A check's title (a score record's, by its rule id) in a reader's language: the Dutch one its
 * rule declares beside the English (`titleNl` in the check's `Rules.ts`), and where each record
 * stands in the score's order. Pure.
 */
import { registry } from "../checks/index.ts"
import type { Lang } from "../kernel/Nis2Evidence.ts"
import { specsOf } from "./Rules.ts"

const specs = specsOf(registry)
const TITLES_NL: ReadonlyMap<string, string> = new Map(specs.map((spec) => [spec.id, spec.titleNl]))
const PLACE: ReadonlyMap<string, number> = new Map(specs.map((spec, i) => [spec.id, i]))

/** The title in `lang`; a record no rule of today's registry declares keeps the title it came with. */
export const recordTitle = (id: string, title: string, lang: Lang): string =>
  lang === "en" ? title : (TITLES_NL.get(id) ?? title)

/** Records in the score's order (category, then rank); those no rule declares after them, as given. */
export const inRecordOrder = <R extends { readonly id: string }>(
  records: ReadonlyArray<R>
): ReadonlyArray<R> =>
  records
    .map((r, i) => ({ r, place: PLACE.get(r.id) ?? specs.length + i }))
    .sort((a, b) => a.place - b.place)
    .map(({ r }) => r)
