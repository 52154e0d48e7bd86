/**
 * The concerns of the Everything Report (SPEC "Everything Report and snapshot"), in report order:
 * the quick score, then one section per registered check, as the check declares it
 * (`about.section` in `checks/<check>/About.ts`, placed by its `rank`), then NIS2.
 *
 * Each concern names the check whose result it presents, the score records that judge it (the
 * check's rules), the catalogue ids it owns (the check's issues) and the sources it rests on
 * (Citations.ts).
 */
import type { Registered } from "../kernel/Check.ts"
import { registry } from "../checks/index.ts"

export type CheckId = (typeof registry)[number]["id"]

export interface Concern {
  readonly key: string
  readonly title: string
  /** The title in Dutch (the check's declaration). */
  readonly titleNl: string
  /** The check whose typed result the section presents (the quick score has none). */
  readonly check: string | null
  /** Ids of the score records judged in this section. */
  readonly records: ReadonlyArray<string>
  /** Catalogue issue ids owned by this section (findings carry no record). */
  readonly issues: ReadonlyArray<string>
  /** Citation keys of the section's primary sources. */
  readonly sources: ReadonlyArray<string>
  /** Fields of the result shown as facts (objects are shown one level deep). */
  readonly facts: ReadonlyArray<string>
  /** The generator endpoint that writes the fix, if any. */
  readonly generator: string | null
}

const quickScore: Concern = {
  key: "quickScore",
  title: "Quick score",
  titleNl: "Snelle score",
  check: null,
  records: [],
  issues: [],
  sources: [],
  facts: [],
  generator: null
}

/** The registered checks in report order (by their section's rank). */
export const inReportOrder = (checks: ReadonlyArray<Registered>): ReadonlyArray<Registered> =>
  [...checks].sort((a, b) => a.about.section.rank - b.about.section.rank)

/** The concerns of a report over `checks`: the quick score, then each check's section. */
export const concernsOf = (checks: ReadonlyArray<Registered>): ReadonlyArray<Concern> => [
  quickScore,
  ...inReportOrder(checks).map(({ id, about: { section, rules, issues } }) => ({
    key: section.key,
    title: section.title,
    titleNl: section.titleNl,
    check: id,
    records: rules.specs.map((s) => s.id),
    issues: Object.keys(issues),
    sources: section.sources,
    facts: section.facts,
    generator: section.generator
  }))
]

export const concerns = concernsOf(registry)

export const concernKeys = concerns.map((c) => c.key)

/** The concern that owns a score record id. */
export const concernOfRecord = (recordId: string, of = concerns): Concern | undefined =>
  of.find((c) => c.records.includes(recordId))

/** The concern that owns a catalogue issue id, else the quick score (never lost). */
export const concernOfIssue = (issueId: string, of = concerns): Concern =>
  of.find((c) => c.issues.includes(issueId)) ?? of[0]!
