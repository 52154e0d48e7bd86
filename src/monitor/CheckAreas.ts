/**
 * What a score record is about (the web site, mail, DNSSEC), so that a diff can say in one line
 * that the checks of one area no longer apply, and why, instead of one line per check (DiffOrder.ts,
 * DiffLines.ts). When a site goes away, a dozen web checks turn `not-applicable` at once; their
 * owner wants to read that the site went away, not each check.
 *
 * Each check declares it with its rules (`concerns` and `foundation` of a Spec, kernel/Declaration.ts),
 * so this module holds no table of record ids: a check added is placed by its own declaration. A
 * record of the `dnssec` category is about DNSSEC; one that declares nothing is `other`.
 */
import { registry } from "../checks/index.ts"
import { specsOf } from "../score/Rules.ts"

export interface Area {
  readonly key: "web" | "mail" | "dnssec" | "other"
  /** The adjective for its checks: "11 web checks". Empty for `other`. */
  readonly noun: string
  /** Says that the area went away, when its foundation record is among the checks gone. */
  readonly goneSentence?: string
}

/** The areas in the order a diff lists their lines; `other` last, as the catch-all. */
export const Areas: ReadonlyArray<Area> = [
  { key: "web", noun: "web", goneSentence: "The web site went away" },
  { key: "mail", noun: "mail", goneSentence: "The domain no longer has a mail server" },
  { key: "dnssec", noun: "DNSSEC" },
  { key: "other", noun: "" }
]

const specs = new Map(specsOf(registry).map((s) => [s.id, s]))

/** The area of a score record (`other` when its check declares none, or the registry lost it). */
export const areaOf = (recordId: string): Area => {
  const spec = specs.get(recordId)
  const key = spec?.concerns ?? (spec?.category === "dnssec" ? "dnssec" : "other")
  return Areas.find((a) => a.key === key)!
}

/** Whether a record is its area's foundation: it stops applying only when the area went away. */
export const isFoundation = (recordId: string): boolean => specs.get(recordId)?.foundation === true
