#!/usr/bin/env node
// The suite's duration guard: each test file's time in the last run (test-results/durations.json,
// written by `npm test`) against its budget in test/budgets.json. A file over twice its budget
// fails the run under CI (elsewhere it is reported): a test that became slow is then a decision,
// taken by raising its budget in the same commit, not an accident. A file without a budget has
// FLOOR_S. `--write` records the last run's times as those files' budgets (others keep theirs),
// with HEADROOM (a file's time varies with what runs beside it), rounded up to 5 s, at least FLOOR_S.
//   node scripts/test/budgets.mjs [--write]
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))
const REPORT = `${root}test-results/durations.json`
const BUDGETS = `${root}test/budgets.json`
/** Below this a file's time is noise on a shared machine: no file's budget is smaller. */
const FLOOR_S = 20
const FACTOR = 2
const HEADROOM = 1.25

if (!existsSync(REPORT)) {
  console.error(`durations: no ${REPORT}; run the suite first (npm test)`)
  process.exit(1)
}
const report = JSON.parse(readFileSync(REPORT, "utf8"))
const seconds = (ms) => ms / 1000

const recorded = existsSync(BUDGETS) ? JSON.parse(readFileSync(BUDGETS, "utf8")).seconds : {}

if (process.argv.includes("--write")) {
  // A run of some files (vitest run test/http) records theirs and keeps every other file's budget.
  const measured = report.files.map((f) => [
    f.file,
    Math.max(FLOOR_S, Math.ceil((HEADROOM * seconds(f.wallMs)) / 5) * 5)
  ])
  const budgets = Object.fromEntries(
    Object.entries({ ...recorded, ...Object.fromEntries(measured) }).sort(([a], [b]) => (a < b ? -1 : 1))
  )
  writeFileSync(
    BUDGETS,
    JSON.stringify({ factor: FACTOR, floorSeconds: FLOOR_S, seconds: budgets }, null, 2) + "\n"
  )
  console.log(`durations: ${measured.length} budgets written to test/budgets.json`)
  process.exit(0)
}

const over = report.files.filter((f) => seconds(f.wallMs) > FACTOR * (recorded[f.file] ?? FLOOR_S))
const total = report.files.reduce((sum, f) => sum + f.wallMs, 0)
console.log(
  `durations: ${report.files.length} files, ${seconds(report.wallMs).toFixed(0)} s of vitest with ${report.workers} workers (${seconds(total).toFixed(0)} s of files); the slowest: node scripts/test/slowest.mjs`
)
for (const f of over) {
  const budget =
    recorded[f.file] === undefined ? `${FLOOR_S} s (none recorded: the floor)` : `${recorded[f.file]} s`
  console.log(
    `durations: ${f.file} took ${seconds(f.wallMs).toFixed(1)} s, over ${FACTOR}x its budget of ${budget}: make it faster, or raise its budget in test/budgets.json in the same commit`
  )
}
process.exit(over.length > 0 && process.env.CI ? 1 : 0)
