/**
 * The test files that need more than the code: the world's servers, a server or child process of
 * their own, the reference tools, a browser. They run in forked processes, after the pure files,
 * which run on worker threads (vitest.config.ts; the quick loop, vitest.quick.config.ts, leaves them
 * out). Both kinds share their worker's imports from file to file.
 */
export const NEEDS_PROCESS = [
  "test/world/**/*.test.ts",
  "test/cluster/**/*.test.ts",
  "test/crosscheck/**/*.test.ts",
  "test/library/**/*.test.ts",
  // the endpoints, the edge's admission and the pages over real HTTP servers; the verify recipe run
  // against a server of its own; Chromium
  "test/http/*.test.ts",
  "test/http/edge/Admission.test.ts",
  "test/pages/browser.test.ts",
  "test/pages/headers.test.ts",
  "test/pages/snapshotRecipe.test.ts",
  // a child process killed mid-write; the PDF read back with poppler
  "test/report/durability.test.ts",
  "test/report/pdfLayout.test.ts"
]

/**
 * Of those, the files started last, when every other file has started: the servers they start need
 * the machine's cores, and starved they cost more, not only longer. 200 monitors each run every
 * 45 s for as long as the test lasts. At a one-minute interval, beside the cross-check's reference
 * tools, whose CPU it shared, the test took 545 s and about nine intervals of scans; alone, 145 s and three. Started
 * last, it shares the machine only with the other worker's last file, one of the shortest (files
 * start longest first), instead of waiting for every file to end as a group of its own did.
 */
export const RUNS_LAST = ["test/cluster/monitors.test.ts"]
