/**
 * Scored records from the rules the registry's checks declare (each in its folder,
 * `checks/<check>/Rules.ts`; docs/scoring.md's tables are generated from them). A check that is `unknown` in the scan,
 * or whose own status is `unknown` / `not-applicable`, yields a record that carries 0 of 0.
 */
import { Categories, type Category, type Registered } from "../kernel/Check.ts"
import type { Ruling, Spec, Verdict } from "../kernel/Declaration.ts"
import { type CheckRecord, record } from "./Model.ts"

export type Scored = CheckRecord & { readonly category: Category }

export const scored = (spec: Spec, v: Verdict): Scored => ({
  ...record({
    id: spec.id,
    title: spec.title,
    maxPoints: spec.maxPoints,
    level: spec.level,
    critical: spec.critical ?? false,
    status: v.status,
    points: v.points,
    detail: v.detail,
    fatal: v.fatal,
    issues: v.issues
  }),
  category: spec.category
})

/** Category order, then the rule's rank within its category: the order scores and reports list records in. */
const byPlace = (a: Spec, b: Spec): number =>
  Categories.indexOf(a.category) - Categories.indexOf(b.category) || a.rank - b.rank

/** Every rule of the registry, in record order. */
export const specsOf = (registry: ReadonlyArray<Registered>): ReadonlyArray<Spec> =>
  registry.flatMap((c) => c.about.rules.specs).sort(byPlace)

/** Rulings as scored records, in record order. */
export const recordsOfRulings = (rulings: ReadonlyArray<Ruling>): ReadonlyArray<Scored> =>
  [...rulings].sort((a, b) => byPlace(a.spec, b.spec)).map((r) => scored(r.spec, r.verdict))
