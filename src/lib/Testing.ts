/**
 * `import { scanResult } from "domain-audit/testing"`: the fast-check arbitraries our own property
 * tests use, for testing a policy built on our score (docs/library.md). They are arbitraries of
 * effect's bundled fast-check: run them with `FastCheck` from "effect".
 */
export {
  checkOutcome,
  checkResult,
  checkRecord,
  recordStatuses,
  scanResult,
  type ScanResultOptions,
  scoredRecord,
  scoredRecords
} from "../score/Arbitraries.ts"
