/**
 * The quick loop's property counts (vitest.quick.config.ts sets TEST_QUICK=1): fast-check's default
 * of 100 runs a property becomes 10, in both copies the suite uses (fast-check itself and the one
 * Effect bundles as FastCheck), and `runs(n)` (runs.ts) gives a tenth of an explicit count.
 * `npm test` does not load this file: there every property runs its full count.
 */
import { FastCheck } from "effect"
import * as fc from "fast-check"
import { QUICK_RUNS } from "./runs.ts"

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: QUICK_RUNS })
FastCheck.configureGlobal({ ...FastCheck.readConfigureGlobal(), numRuns: QUICK_RUNS })
