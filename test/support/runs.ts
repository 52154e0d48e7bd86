/**
 * A property's run count: `n` in the full suite, a tenth of it (at least one) in the quick loop
 * (`npm run test:quick`, vitest.quick.config.ts), so that the inner loop stays quick without
 * lowering what CI runs.
 */
export const quick = process.env.TEST_QUICK === "1"

/** fast-check's default run count in the quick loop (100 in the full suite). */
export const QUICK_RUNS = 10

export const runs = (n: number): number => (quick ? Math.max(1, Math.ceil(n / 10)) : n)
