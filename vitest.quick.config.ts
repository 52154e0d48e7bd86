import { defineConfig } from "vitest/config"

/**
 * The inner loop (`npm run test:quick`): no world, no reference tools, no browser, no servers or
 * child processes: the pure analysers, records, scoring, reports, monitors, reports in, the contract
 * and the architecture rules, with property tests at a tenth of their runs (test/support/runs.ts).
 * Files share their worker's modules (isolate: false): importing Effect and the engine once per
 * worker instead of once per file is most of what makes it quick (45 s on a quiet machine, where
 * each file in a process of its own took ten times as long). `npm test` runs everything, each file
 * in its own process, every property at its full count.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      "test/world/**",
      "test/cluster/**",
      "test/crosscheck/**",
      "test/library/**",
      // the edge and the pages are tested over real HTTP servers
      "test/http/**",
      "test/pages/**",
      // a child process killed mid-write; the PDF read back with poppler
      "test/report/durability.test.ts",
      "test/report/pdfLayout.test.ts"
    ],
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
