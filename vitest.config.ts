import { defineConfig } from "vitest/config"
import BudgetSequencer from "./test/support/BudgetSequencer.ts"

/**
 * The whole suite (`npm test` runs it through scripts/test/run.ts). Most world tests wait (on servers,
 * timeouts, child processes) far more than they compute, so more files run at once than there are
 * cores: VITEST_WORKERS overrides the count. test-results/durations.json records where the time went
 * (node scripts/test/slowest.mjs prints it); the quick loop is vitest.quick.config.ts.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/world/globalSetup.ts"],
    setupFiles: ["test/support/timing.setup.ts"],
    reporters: ["default", "./test/support/DurationReporter.ts"],
    sequence: { sequencer: BudgetSequencer },
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 4),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 180_000
  }
})
