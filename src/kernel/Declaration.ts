/**
 * What a check declares about itself besides `gather` and `analyse` (DESIGN.md "A check"): its
 * scoring rules, its report section, its batch/CSV columns, the NIS2 measures it evidences and the
 * deep-scan types that include it. The score, the reports, the batch and the jobs read these from
 * the registry (`checks/index.ts`) and hold no table of their own, so adding a check is its folder
 * and one registry line (docs/architecture.md "Adding a check").
 *
 * Lists that readers show in a fixed order (a category's rules, the report's sections, the CSV's
 * columns, a NIS2 measure's evidence) carry a `rank`: readers sort by it, so a check slots in
 * wherever its rank puts it without the registry's order deciding how a report reads.
 */
import { Schema } from "effect"
import type { GuidanceEntry } from "./GuidanceDeclaration.ts"
import type { EvidenceText } from "./Nis2Evidence.ts"
import type { Source } from "./Source.ts"
import type { Severity } from "./Status.ts"
import { unknown, type Verdict } from "./RuleVerdict.ts"

export {
  fail,
  notApplicable,
  partial,
  pass,
  RecordStatus,
  spread,
  unknown,
  type Verdict
} from "./RuleVerdict.ts"

/** The score's categories (the spec's `dns`, `email`, `security`, plus `dnssec` and `ipv6`). */
export const Categories = ["dns", "email", "security", "dnssec", "ipv6"] as const
export type Category = (typeof Categories)[number]

export const Level = Schema.Literal("required", "recommended", "info")
export type Level = typeof Level.Type

/** One scoring rule: a score record's id, what it weighs and what earns it (docs/scoring.md). */
export interface Spec {
  readonly id: string
  readonly title: string
  /** The title in Dutch, as a Dutch page, PDF, markdown, history or alert names the check. */
  readonly titleNl: string
  readonly category: Category
  readonly maxPoints: number
  readonly level: Level
  readonly critical?: boolean
  /** One sentence: what earns the points (docs/scoring.md's tables are generated from it). */
  readonly rule: string
  /** Where the record stands among its category's records (scores and reports list them by rank). */
  readonly rank: number
  /**
   * The part of the domain the record is about, when it is its web site or its mail: a diff says
   * in one line that the checks of a part no longer apply (monitor/DiffLines.ts), not one per check.
   */
  readonly concerns?: Concern
  /**
   * The record that does not apply only when its part is missing altogether (the web site's HTTPS
   * check: no address at the apex; STARTTLS: no mail server), so that a diff in which it stops
   * applying can say the web site, or the mail servers, went away.
   */
  readonly foundation?: boolean
}

/** The parts of a domain whose checks stop applying together when the part goes away. */
export type Concern = "web" | "mail"

/** A rule's spec, typed as one where it is written (each check's `Rules.ts`). */
export const spec = (s: Spec): Spec => s

/** A rule and its verdict: `score/` turns it into a scored record. */
export interface Ruling {
  readonly spec: Spec
  readonly verdict: Verdict
}

export const scored = (spec: Spec, verdict: Verdict): Ruling => ({ spec, verdict })

/**
 * What a rule reads of a check's outcome: three fields of a full scan's `CheckOutcome`
 * (scan/ScanResult.ts), or the same three built by a composite that ran the check itself
 * (`GET /email/check`). `unknown`: the check could not finish, `reason` says why.
 */
export interface Judged<A> {
  readonly status: "done" | "unknown"
  readonly reason: string | null
  readonly result: A | null
}

/** The result of a check that finished, or the verdict `unknown` with the Scanner's reason. */
export const judge = <A>(outcome: Judged<A> | undefined, f: (result: A) => Verdict): Verdict =>
  outcome === undefined
    ? unknown("the check did not run")
    : outcome.status === "unknown" || outcome.result === null
      ? unknown(`the check could not finish: ${outcome.reason ?? "no result"}`)
      : f(outcome.result)

/** A scan's outcomes by check id (`scan.checks`), as every check's rules are handed them. */
export type Outcomes = { readonly [check: string]: unknown }

/**
 * A check's scoring rules: their specs, and the function that judges a scan with them. `judge`
 * reads the scan's outcomes by check id (`scan.checks`), its own and those of the checks it builds
 * on; each check's rules are written over the results they read (`rulesOver`).
 */
export interface Rules {
  readonly specs: ReadonlyArray<Spec>
  readonly judge: (scan: { readonly checks: Outcomes }) => ReadonlyArray<Ruling>
}

/**
 * The outcomes a check's rules read, by check id, typed by the results `R` names (check id: result
 * type): the check's own, and those of the checks whose verdicts it builds on.
 */
export type Judging<R> = { readonly checks: { readonly [K in keyof R]: Judged<R[K]> } }

/**
 * Rules that read the results `R` names. A scan holds each check's outcome under the check's id,
 * made by that check's Schema (scan/ScanResult.ts): that is what `R` is taken to hold, here and
 * nowhere else, so a check's rules never see the whole scan's type (which the registry, and so
 * every check, makes up).
 */
export const rulesOver = <R>(
  specs: ReadonlyArray<Spec>,
  judge: (scan: Judging<R>) => ReadonlyArray<Ruling>
): Rules => ({ specs, judge: (scan) => judge(scan as Judging<R>) })

/** The check's section of the Everything Report (and its PDF and markdown), over its result `A`. */
export interface Section<A = unknown> {
  /** The section's key in the report (`sections.<key>`). */
  readonly key: string
  readonly title: string
  /** The title in Dutch, as the pages show it with `lang=nl`. */
  readonly titleNl: string
  /** Where the section stands in the report (the quick score comes first, NIS2 last). */
  readonly rank: number
  /** Citation keys of the section's primary sources (report/Citations.ts). */
  readonly sources: ReadonlyArray<string>
  /** Fields of the result shown as facts (objects are shown one level deep). */
  readonly facts: ReadonlyArray<string>
  /** The generator endpoint that writes the fix, if any. */
  readonly generator: string | null
  /** What this section shows beyond every section's fields (SPF: its lookup graph), if anything. */
  readonly extra?: SectionExtra<A>
}

/** Fields a section adds, and how they are read from the check's result `A` (null: no result). */
export interface SectionExtra<A = unknown> {
  readonly fields: Schema.Struct.Fields
  readonly of: (result: A | null) => object
}

/**
 * A batch/CSV column: the worst status among the score records it names (docs/batch.md), so "pass"
 * means every one of them passed.
 */
export interface Column {
  readonly name: string
  readonly rank: number
  readonly records: ReadonlyArray<string>
}

/** The measures of Article 21(2)(a)-(j) of Directive (EU) 2022/2555. */
export const MeasureIds = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] as const
export type MeasureId = (typeof MeasureIds)[number]

/**
 * A score record as evidence for a measure of Article 21(2) of Directive (EU) 2022/2555 (NIS2).
 * `weight` is its share within the measure; `passAt` the fraction of the record's points that
 * counts as passing (default 1: only a full pass).
 */
export interface Evidence {
  readonly measure: MeasureId
  readonly record: string
  readonly weight: number
  readonly passAt?: number
  /** Where the item stands among the measure's evidence. */
  readonly rank: number
  /** The item's label and details, in every language of the scorecard. */
  readonly text: EvidenceText
}

export const DeepScanTypes = ["mail", "web"] as const
export type DeepScanType = (typeof DeepScanTypes)[number]

/** An issue's title and description in Dutch: what the scorecard, pages and reports say with `lang=nl`. */
export interface Dutch {
  readonly title: string
  readonly description: string
}

export const nl = (title: string, description: string): Dutch => ({ title, description })

/** One entry of the issue catalogue, without its id (the key it is stored under). */
export interface Entry {
  readonly category: Category
  readonly severity: Severity
  /** One of the generators (`src/generate/`: SPF, DMARC, TLSA, security headers) writes the fix. */
  readonly fixable: boolean
  readonly title: string
  readonly description: string
  /** The same in Dutch: every issue has it, so no reader falls back to English. */
  readonly nl: Dutch
}

export const e = (
  category: Category,
  severity: Severity,
  fixable: boolean,
  title: string,
  description: string,
  dutch: Dutch
): Entry => ({ category, severity, fixable, title, description, nl: dutch })

/** The knowledge base's entry on an issue: what its catalogue entry does not already say. */
export interface Advice {
  /** Further explanation, appended to the catalogue's description. */
  readonly detail?: string
  /** What happens to the domain's mail or visitors while the issue stays. */
  readonly impact: string
  /** What to do about it. */
  readonly recommendation: string
}

export {
  Guidance,
  guide,
  type GuidanceEntry,
  type GuidanceProse,
  Provider,
  providerNames,
  ProviderNote,
  type ProviderNotes,
  Providers
} from "./GuidanceDeclaration.ts"

/**
 * Everything a registered check declares besides gather/analyse, over its result `A`: what it
 * writes in its folder. `define` (kernel/Check.ts) keeps it as `About`, read by the registry's
 * readers with a result of a check they do not name.
 */
export interface AboutOf<A> {
  readonly rules: Rules
  /** The issues its rules and findings report, under catalogue ids no other check uses. */
  readonly issues: Readonly<Record<string, Entry>>
  /** The knowledge base's advice on each of its issues (the same ids). */
  readonly advice: Readonly<Record<string, Advice>>
  /** What the domain owner does about each of its issues (the same ids; docs/guidance.md). */
  readonly guidance: Readonly<Record<string, GuidanceEntry>>
  readonly section: Section<A>
  readonly columns: ReadonlyArray<Column>
  readonly nis2: ReadonlyArray<Evidence>
  /** The deep scans (`POST /scan/deep`) that run this check. */
  readonly deepScans: ReadonlyArray<DeepScanType>
  /**
   * The documents its section and issues cite that the shared bibliography (report/Citations.ts)
   * does not hold, by citation key: those only this check rests on. None when absent.
   */
  readonly citations?: Readonly<Record<string, Source>>
  /**
   * The issues its result's own findings report beyond its rules' (SPF: a record close to the
   * lookup limit; DMARC: `sp=none`), costing no points; none when absent.
   */
  readonly findings?: (result: A) => ReadonlyArray<string>
  /**
   * Every id its result's `findings[].id` can hold and what each one is (a catalogue id, or a note on
   * information); `/ai/explain` accepts these ids as well as the catalogue's. None when absent.
   */
  readonly findingIds?: FindingTable
  /**
   * Its rules whose `unknown` is, for this result, an answer rather than a question left unanswered
   * (DKIM: no key under the selectors we know, which cannot be listed); none when absent.
   */
  readonly settledUnknowns?: (result: A) => ReadonlyArray<string>
}

/**
 * What a check is: its `id` (stable: scores, reports and the catalogue key on it), its title, its
 * score category and `result`, the Schema of what it produces (the single source of the result's
 * TypeScript type, its OpenAPI schema, stored snapshots and messages).
 */
export interface Identity<Id extends string, A, I = A> {
  readonly id: Id
  readonly title: string
  readonly category: Category
  readonly result: Schema.Schema<A, I>
}

/** A registered check's identity and declarations, as its About.ts writes them together. */
export type Declared<Id extends string, A, I = A> = Identity<Id, A, I> & AboutOf<A>

/**
 * A check's About.ts: what it is and everything it declares, in one place. The id is kept as
 * written (the scan's result is keyed by it) and the declarations are typed over the result its
 * Schema makes, so `findings`, `settledUnknowns` and a section's extra fields read that result.
 */
export const declared = <const Id extends string, A, I>(
  about: Identity<Id, A, I> & NoInfer<AboutOf<A>>
): Declared<Id, A, I> => about

/** A check's declarations as the registry's readers hold them: over a result they do not name. */
export type About = AboutOf<unknown>

/**
 * `about` as the registry keeps it. Its functions are handed the result of the check that declares
 * them (the outcome under the check's id, made by its Schema): taken to be an `A` here, once.
 */
export const aboutOf = <A>(about: AboutOf<A>): About => {
  const { findings, settledUnknowns, section, ...declared } = about
  const { extra, ...shown } = section
  return {
    ...declared,
    section: {
      ...shown,
      ...(extra && { extra: { fields: extra.fields, of: (result: unknown) => extra.of(result as A | null) } })
    },
    ...(findings && { findings: (result: unknown) => findings(result as A) }),
    ...(settledUnknowns && { settledUnknowns: (result: unknown) => settledUnknowns(result as A) })
  }
}

/**
 * A finding that is information rather than an issue (a lookup that failed is `unknown`, never an
 * issue): it has no catalogue entry, so it says itself what `/ai/explain` answers for its id.
 */
export interface FindingNote {
  readonly title: string
  readonly description: string
  readonly recommendation: string
}

/** A check's finding ids: each one's catalogue id, or its note when it is information. */
export type FindingTable = Readonly<Record<string, string | FindingNote>>

/** The catalogue issues of `found` by a check's finding table (information and unlisted ids are left out). */
export const findingsOf = (
  table: FindingTable,
  found: ReadonlyArray<{ readonly id: string }>
): ReadonlyArray<string> =>
  found.flatMap((f) => {
    const id = Object.hasOwn(table, f.id) ? table[f.id] : undefined
    return typeof id === "string" ? [id] : []
  })

/** The rules of a check that is shown but never scored (its section still presents its result). */
export const noRules: Rules = { specs: [], judge: () => [] }
