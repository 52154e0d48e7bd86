/**
 * fast-check arbitraries of what the score reads: scored check records (the rules' verdicts), the
 * records NIS2 reads, one check's outcome, and whole scans. Our property tests of the scoring model
 * and NIS2 use them, and the package exports them (`domain-audit/testing`) so that a user can test
 * a policy of their own over the same inputs.
 *
 * They are built with effect's bundled fast-check (`FastCheck` from "effect"), the version whose
 * arbitraries `Arbitrary.make` builds from our Schemas, so a check's result is generated from the
 * Schema that declares it. Run them with that `FastCheck` (`FastCheck.assert`, `FastCheck.property`).
 */
import { Arbitrary, FastCheck as fc } from "effect"
import { type AnyCheck, Categories } from "../kernel/Check.ts"
import { registry as registered } from "../checks/index.ts"
import type { CheckOutcome, ScanResult } from "../scan/ScanResult.ts"
import { type IssueId, issueIds } from "./Catalogue.ts"
import { type CheckRecord, record, type RecordStatus } from "./Model.ts"
import { type Scored, scored } from "./Rules.ts"

export const recordStatuses: ReadonlyArray<RecordStatus> = [
  "pass",
  "partial",
  "fail",
  "not-applicable",
  "unknown"
]

/** One in `n`: a rare case that still turns up in every run of a hundred. */
const oneIn = (n: number) => fc.integer({ min: 0, max: n - 1 }).map((i) => i === 0)

/**
 * A scored record of rule `check.<i>` in every category, with every status, points out of bounds on
 * purpose (the model clamps them), a fatal verdict now and then, up to two catalogue issues.
 */
export const scoredRecord = (i: number): fc.Arbitrary<Scored> =>
  fc
    .record({
      category: fc.constantFrom(...Categories),
      maxPoints: fc.integer({ min: 0, max: 8 }),
      level: fc.constantFrom("required" as const, "recommended" as const, "info" as const),
      critical: fc.boolean(),
      status: fc.constantFrom(...recordStatuses),
      points: fc.integer({ min: -2, max: 10 }),
      fatal: oneIn(5),
      issues: fc.array(fc.constantFrom(...issueIds), { maxLength: 2 })
    })
    .map((r) =>
      scored(
        {
          id: `check.${i}`,
          title: `Check ${i}`,
          titleNl: `Controle ${i}`,
          category: r.category,
          maxPoints: r.maxPoints,
          level: r.level,
          critical: r.critical,
          rule: "",
          rank: 0
        },
        {
          status: r.status,
          points: r.points,
          detail: "generated",
          issues: r.issues as Array<IssueId>,
          fatal: r.fatal && (r.status === "fail" || r.status === "partial")
        }
      )
    )

/** 1 to 24 scored records with distinct ids: the input of `scoreRecords`. */
export const scoredRecords: fc.Arbitrary<ReadonlyArray<Scored>> = fc
  .integer({ min: 1, max: 24 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => scoredRecord(i))))

/**
 * A required record of rule `id` with at least one issue (never `dns_no_such_domain`, which
 * stands for the whole scan): what a NIS2 measure's evidence reads.
 */
export const checkRecord = (id: string): fc.Arbitrary<CheckRecord> =>
  fc
    .record({
      maxPoints: fc.integer({ min: 1, max: 8 }),
      critical: fc.boolean(),
      status: fc.constantFrom(...recordStatuses),
      points: fc.integer({ min: 0, max: 8 }),
      fatal: oneIn(10),
      issues: fc.array(fc.constantFrom(...issueIds.filter((issue) => issue !== "dns_no_such_domain")), {
        minLength: 1,
        maxLength: 2
      })
    })
    .map((r) =>
      record({
        id,
        title: id,
        maxPoints: r.maxPoints,
        level: "required",
        critical: r.critical,
        status: r.status,
        points: r.points,
        detail: "generated",
        fatal: r.fatal && r.status === "fail",
        issues: r.issues as Array<IssueId>
      })
    )

/** A result of `check`, generated from the Schema that declares it (valid, rarely realistic). */
export const checkResult = <C extends AnyCheck>(check: C): fc.Arbitrary<C["result"]["Type"]> =>
  Arbitrary.make(check.result)

/**
 * What became of `check` in a scan: `done` with a result generated from its Schema, or `unknown`
 * with a reason and no result, as the Scanner reports them.
 */
export const checkOutcome = (check: AnyCheck): fc.Arbitrary<CheckOutcome<unknown>> =>
  fc
    .oneof(
      {
        weight: 4,
        arbitrary: checkResult(check).map((result) => ({ status: "done" as const, result }))
      },
      { weight: 1, arbitrary: fc.constant({ status: "unknown" as const, result: null }) }
    )
    .chain((end) =>
      fc
        .record({ durationMs: fc.nat(60_000), needs: fc.subarray(registered.map((c) => c.id)) })
        .map(({ durationMs, needs }) => ({
          id: check.id,
          title: check.title,
          category: check.category,
          status: end.status,
          reason: end.status === "done" ? null : "did not finish within 20000 ms",
          durationMs,
          needs,
          result: end.result
        }))
    )

export interface ScanResultOptions {
  /**
   * Only scans the score grades: the domain's DNS lookup finished and answered (else most
   * generated scans are `unscannable`, grade F, percentage 0).
   */
  readonly gradable?: boolean
}

/** The lookup of a gradable scan: finished, its A question answered, nothing NXDOMAIN. */
const answered = (outcome: CheckOutcome<unknown>, lookup: unknown): CheckOutcome<unknown> => {
  const result = lookup as { readonly outcomes: Readonly<Record<string, string>> }
  const outcomes = Object.fromEntries(
    Object.entries(result.outcomes).map(([type, o]) => [type, o === "nxdomain" ? "nodata" : o])
  )
  return {
    ...outcome,
    status: "done",
    reason: null,
    result: { ...result, outcomes: { ...outcomes, A: "answer" } }
  }
}

/**
 * A whole scan over the registry's checks, each outcome from `checkOutcome`: the input of `score`.
 * The results are generated from the checks' Schemas, so they are valid but rarely realistic: good
 * for what must hold of any scan (bounds, bands, ordering), not for one scenario.
 */
export const scanResult = (options: ScanResultOptions = {}): fc.Arbitrary<ScanResult> => {
  const lookup = registered.find((c) => c.id === "dns-records")!
  const outcomes = Object.fromEntries(
    registered.map((check) => [
      check.id,
      options.gradable === true && check === lookup
        ? fc.tuple(checkOutcome(check), checkResult(check)).map(([o, r]) => answered(o, r))
        : checkOutcome(check)
    ])
  )
  return fc
    .record({
      domain: fc.domain(),
      computedAt: fc
        .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
        .map((ms) => new Date(ms).toISOString()),
      cached: fc.boolean(),
      durationMs: fc.nat(60_000),
      deadlineMs: fc.constant(30_000),
      criticalPathMs: fc.nat(60_000),
      checks: fc.record(outcomes)
    })
    .map((scan) => scan as ScanResult)
}
