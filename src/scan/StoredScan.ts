/**
 * A scan as it was stored, read by a registry that may have changed since (docs/monitoring.md
 * "When the checks change"). The history and the report snapshots keep scans for ever, while the
 * registry gains and loses checks; a stored scan must stay readable all the same:
 *
 * - a check the registry has but the stored scan lacks was **not checked then**: its outcome reads
 *   `unknown` with the reason `NOT_CHECKED`, and the score, the NIS2 scorecard, the diff and the
 *   evidence leave it out (`checksRun`) rather than count it as a failure or as unanswered;
 * - a check the stored scan has but the registry no longer knows is kept as stored where the scan
 *   is served as stored (`StoredScanResult`), and skipped where typed code reads the scan
 *   (`completeScan`): nothing can judge it any more.
 *
 * Hashes are never computed over what this module builds: they are over the stored bytes.
 */
import { Either, type ParseResult, Schema } from "effect"
import type { AnyCheck } from "../kernel/Check.ts"
import { registry } from "../checks/index.ts"
import { CheckOutcome, ScanResult, scanResultSchema } from "./ScanResult.ts"

/** The reason of the outcome of a check that the registry did not have when the scan ran. */
export const NOT_CHECKED = "not checked: the service did not have this check when the scan ran"

type Outcomes = ScanResult["checks"]

/** The outcomes of a stored scan: some or all of the registry's, and those of checks it no longer knows. */
export type StoredOutcomes = Partial<Outcomes> & { readonly [check: string]: unknown }

/** A stored scan as decoded: every field of a scan, its outcomes as `StoredOutcomes`. */
export type StoredScanResult = Omit<ScanResult, "checks"> & { readonly checks: StoredOutcomes }

/**
 * The outcomes of a stored scan over `checks`: each check's outcome when it is there (decoded by
 * its Schema, so a damaged one still fails), and any other member kept as it was stored.
 */
export const storedOutcomesSchema = (checks: ReadonlyArray<AnyCheck>) =>
  Schema.Struct(
    Object.fromEntries(checks.map((c) => [c.id, Schema.optional(CheckOutcome(c.result))])),
    // Unknown, not an outcome's Schema: an index signature's value is also checked against the
    // registry's own members, and a check of the past may have stored any shape.
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )

/**
 * The Schema of a stored scan over `checks` (the registry's, by default): a scan whose outcomes may
 * lack some of the registry's checks and hold others. Encoding gives back what was decoded, the
 * members of unknown checks included, so a stored scan is served as stored.
 */
export const storedScanSchema = (checks: ReadonlyArray<AnyCheck>) => {
  const { checks: _, ...fields } = scanResultSchema(checks).fields
  return Schema.Struct({ ...fields, checks: storedOutcomesSchema(checks) }) as Schema.Schema<
    StoredScanResult,
    unknown
  >
}

export const StoredScanResult = storedScanSchema(registry).annotations({ identifier: "StoredScanResult" })

/** The outcome a check reads in a scan made before the registry had it. */
export const notCheckedOutcome = (check: AnyCheck) => ({
  id: check.id,
  title: check.title,
  category: check.category,
  status: "unknown" as const,
  reason: NOT_CHECKED,
  durationMs: 0,
  needs: [],
  result: null
})

/**
 * The registry's outcomes of stored `outcomes`: each as stored, or not checked; outcomes of checks
 * the registry no longer knows are left out (typed code cannot read them).
 */
export const completeOutcomes = (
  outcomes: { readonly [check: string]: unknown },
  checks: ReadonlyArray<AnyCheck> = registry
): Outcomes =>
  Object.fromEntries(
    checks.map((c) => [c.id, Object.hasOwn(outcomes, c.id) ? outcomes[c.id] : notCheckedOutcome(c)])
  ) as Outcomes

/** A stored scan as a scan of today's registry, or of `checks` of it (`completeOutcomes`). */
export const completeScan = (
  stored: StoredScanResult,
  checks: ReadonlyArray<AnyCheck> = registry
): ScanResult => ({
  ...stored,
  checks: completeOutcomes(stored.checks, checks)
})

const decodeStored = Schema.decodeUnknownEither(StoredScanResult)

/** A stored scan (its decoded JSON) as a scan of today's registry, or why it does not decode. */
export const readStoredScan = (json: unknown): Either.Either<ScanResult, ParseResult.ParseError> =>
  Either.map(decodeStored(json), completeScan)

/**
 * The checks of `checks` that `scan` ran: all but those its service did not have then
 * (`NOT_CHECKED`). `checks` itself when it ran all of them, so a caller can tell cheaply.
 */
export const checksRun = <C extends AnyCheck>(
  scan: { readonly checks: object },
  checks: ReadonlyArray<C>
): ReadonlyArray<C> => {
  const outcomes = scan.checks as { readonly [check: string]: { readonly reason?: unknown } | undefined }
  const run = checks.filter((c) => outcomes[c.id]?.reason !== NOT_CHECKED)
  return run.length === checks.length ? checks : run
}

/**
 * `scan` as if it had run only `checks`: every other outcome reads not checked. Two scans of
 * different registries, each so restricted to the checks both ran, are judged alike (monitor/Diff.ts).
 */
export const restrictTo = (scan: ScanResult, checks: ReadonlyArray<AnyCheck>): ScanResult => {
  const kept = new Set(checks.map((c) => c.id))
  const outcomes = scan.checks as { readonly [check: string]: unknown }
  return {
    ...scan,
    checks: Object.fromEntries(
      registry.map((c) => [c.id, kept.has(c.id) ? outcomes[c.id] : notCheckedOutcome(c)])
    ) as Outcomes
  }
}
