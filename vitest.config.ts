import { defineConfig } from "vitest/config"
import BudgetSequencer from "./test/support/BudgetSequencer.ts"

/**
 * The whole suite (`npm test` runs it through scripts/test/run.ts). One file at a time by default:
 * on two cores the suite is bound by CPU (Effect's import per file, property tests, the service
 * processes, the reference tools), and four files at once ran it slower, with CPU-bound tests at
 * their time limits (docs/testing.md). VITEST_WORKERS sets more on a larger machine.
 * test-results/durations.json records where the time went (npm run test:slowest prints it); the
 * quick loop is vitest.quick.config.ts.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/world/globalSetup.ts"],
    setupFiles: ["test/support/timing.setup.ts"],
    reporters: ["default", "./test/support/DurationReporter.ts"],
    sequence: { sequencer: BudgetSequencer },
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 1),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 180_000
  }
})
