import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"
import BudgetSequencer from "./test/support/BudgetSequencer.ts"
import { NEEDS_PROCESS } from "./test/support/suites.ts"

/**
 * The whole suite (`npm test` runs it through scripts/test/run.ts), in two groups, one after the
 * other:
 * - the pure files (everything test/support/suites.ts does not list) on worker threads that keep
 *   their imports from file to file (isolate: false): importing Effect and the engine once per
 *   worker instead of once per file (it was two thirds of these files' time);
 * - then the files that need the world, servers or child processes, in forked processes that also
 *   keep their imports from file to file: each of these files imported the service afresh (about
 *   4 s of CPU each, some 450 s over the suite) when it had a process of its own; the files whose
 *   servers need the whole machine start last (RUNS_LAST, suites.ts; BudgetSequencer.ts).
 * Two files at a time by default (one on a single core): one file alone leaves a core idle half the
 * time while it waits on the world's servers, timeouts and child processes; four ran the suite slower,
 * CPU-bound tests at their time limits (docs/testing.md). VITEST_WORKERS sets another count.
 * test-results/durations.json records where the time went (npm run test:slowest prints it); the
 * quick loop is vitest.quick.config.ts.
 */
export default defineConfig({
  test: {
    setupFiles: ["test/support/timing.setup.ts"],
    reporters: ["default", "./test/support/DurationReporter.ts"],
    sequence: { sequencer: BudgetSequencer },
    maxWorkers: Number(process.env.VITEST_WORKERS ?? Math.min(2, availableParallelism())),
    minWorkers: 1,
    // isolation is set per pool, not per project: the threads carry the pure files, the forks the rest
    poolOptions: { threads: { isolate: false }, forks: { isolate: false } },
    testTimeout: 30_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: "pure",
          include: ["test/**/*.test.ts"],
          exclude: NEEDS_PROCESS,
          pool: "threads",
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          name: "processes",
          include: NEEDS_PROCESS,
          globalSetup: ["test/world/globalSetup.ts"],
          pool: "forks",
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
