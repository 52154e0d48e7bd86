/** One entry of the issue catalogue, without its id (the key it is stored under). */
import type { Category } from "../checks/Check.ts"
import type { Severity } from "../checks/Status.ts"

export interface Entry {
  readonly category: Category
  readonly severity: Severity
  readonly fixable: boolean
  readonly title: string
  readonly description: string
}

export const e = (
  category: Category,
  severity: Severity,
  fixable: boolean,
  title: string,
  description: string
): Entry => ({ category, severity, fixable, title, description })
