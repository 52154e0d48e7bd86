/**
 * Orders test files longest first by their recorded budget (test/budgets.json), so that on a fresh
 * clone, with no timing cache, the long files start at once and the short ones fill the workers
 * around them; a file without a budget (new) counts as the floor. vitest's own order needs the
 * cache of an earlier run, and without it runs the largest files first, which are not the slowest.
 * The files of RUNS_LAST (suites.ts) come after all others, whatever their budget.
 */
import { existsSync, readFileSync } from "node:fs"
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { RUNS_LAST } from "./suites.ts"

interface Budgets {
  readonly floorSeconds: number
  readonly seconds: Readonly<Record<string, number>>
}

const budgetsFile = new URL("../budgets.json", import.meta.url)

const readBudgets = (): Budgets =>
  existsSync(budgetsFile) ? JSON.parse(readFileSync(budgetsFile, "utf8")) : { floorSeconds: 0, seconds: {} }

export default class BudgetSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const { floorSeconds, seconds } = readBudgets()
    const root = this.ctx.config.root
    const budget = (spec: TestSpecification) => seconds[relative(root, spec.moduleId)] ?? floorSeconds
    const last = (spec: TestSpecification) => (RUNS_LAST.includes(relative(root, spec.moduleId)) ? 1 : 0)
    return [...files].sort((a, b) => last(a) - last(b) || budget(b) - budget(a))
  }
}
