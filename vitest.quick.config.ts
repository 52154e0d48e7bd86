import { defineConfig } from "vitest/config"
import { NEEDS_PROCESS } from "./test/support/suites.ts"

/**
 * The inner loop (`npm run test:quick`): no world, no reference tools, no browser, no servers or
 * child processes (test/support/suites.ts lists what is left out): the pure analysers, records,
 * scoring, reports, monitors, reports in, the contract and the architecture rules, with property
 * tests at a tenth of their runs (test/support/runs.ts). Files share their worker's modules
 * (isolate: false), as the pure files do in `npm test`. `npm test` runs everything, every property at
 * its full count.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: NEEDS_PROCESS,
    setupFiles: ["test/support/quick.setup.ts"],
    env: { TEST_QUICK: "1" },
    pool: "forks",
    poolOptions: { forks: { isolate: false } },
    // Pure work: as many files at once as there are cores.
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
