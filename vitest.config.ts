import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"
import BudgetSequencer from "./test/support/BudgetSequencer.ts"

/**
 * The whole suite (`npm test` runs it through scripts/test/run.ts). Two files at a time by default
 * (one on a single core): one file alone leaves a core idle half the time while it waits on the
 * world's servers, timeouts and child processes, and two ran the world's files in 507 s instead of
 * 792 s on two cores; four ran the whole suite slower, CPU-bound tests at their time limits
 * (docs/testing.md). VITEST_WORKERS sets another count.
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
    maxWorkers: Number(process.env.VITEST_WORKERS ?? Math.min(2, availableParallelism())),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 180_000
  }
})
