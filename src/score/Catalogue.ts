/**
 * The issue catalogue: every finding a scan can produce, under a stable snake_case id. The ids are
 * the contract `/ai/explain`, `/ai/fix`, NIS2 evidence and reports key on; `docs/issues.md`'s tables
 * are generated from it (`npm run docs`). `fixable` is true when one of our
 * generators (`src/generate/`: SPF, DMARC, TLSA, security headers) produces the fix.
 */
import { Schema } from "effect"
import { Categories, type Registered } from "../kernel/Check.ts"
import type { Entry } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import { Severity } from "../kernel/Status.ts"

export const Issue = Schema.Struct({
  id: Schema.String,
  severity: Severity,
  category: Schema.Literal(...Categories),
  title: Schema.String,
  description: Schema.String,
  fixable: Schema.Boolean
})
export type Issue = typeof Issue.Type

/**
 * The catalogue of `checks`: every issue id, each declared once, by the check that reports it
 * (`checks/<check>/Issues.ts`), in the registry's order.
 */
export const catalogueOf = (checks: ReadonlyArray<Registered>): Readonly<Record<IssueId, Entry>> =>
  Object.fromEntries(checks.flatMap((c) => Object.entries(c.about.issues)))

export const catalogue = catalogueOf(registry)

/** A catalogue id: the ids scores report, `/email/check` reports and `/ai/explain` accepts. */
export type IssueId = string
export const issueIds: ReadonlyArray<IssueId> = Object.keys(catalogue)
export const issueOf = (id: IssueId, entries: Readonly<Record<IssueId, Entry>> = catalogue): Issue => {
  const { category, severity, fixable, title, description } = entries[id]!
  return { id, severity, category, title, description, fixable }
}
