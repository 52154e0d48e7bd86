/**
 * The hall of fame's storage (docs/presentation.md "Hall of fame"): the latest result of every
 * domain the service has fully scanned, the start of its current A+ run, and the operators'
 * suppression list with its append-only log.
 *
 * - One row per domain (`domain_results`), overwritten by each newer result: storage grows with the
 *   domains scanned, not with the scans. A result older than the stored one is ignored, so two scans
 *   finishing out of order cannot put an old grade back.
 * - `a_plus_since` is the `computedAt` of the first result of the current run of A+ results, and
 *   NULL once a result below A+ arrives (internet.nl's hall of fame dates entries the same way:
 *   `checks/tasks/update.py`, `_populate_HOF`).
 * - Suppression (abuse, legal removal) hides a domain without touching its results; every
 *   suppression and lift is logged in a table that refuses UPDATE and DELETE.
 */
import { NormalDomain, domainOfRow } from "../records/DomainName.ts"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { appendOnly } from "./AppendOnly.ts"

/** GET /hall-of-fame (SPEC "Other resources"): `addedAt` is epoch milliseconds. */
export const HallOfFame = Schema.Struct({
  entries: Schema.Array(
    Schema.Struct({
      domain: NormalDomain,
      score: Schema.Int.annotations({ description: "the percentage, 0-100 (100 for every A+)" }),
      grade: Schema.String,
      addedAt: Schema.Int.annotations({
        description: "epoch milliseconds: when the first scan of the domain's current run of A+ results ran"
      })
    })
  ),
  total: Schema.Int
})
export type HallOfFame = typeof HallOfFame.Type

/** The grade a domain needs for the hall of fame (SPEC grading scale: 100 % with critical checks passing). */
export const HALL_OF_FAME_GRADE = "A+"

/** Migrations 0005-0007, appended to `store/Sql.ts`'s list. */
export const hallOfFameMigrations = {
  "0005_domain_results": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE domain_results (
      domain TEXT PRIMARY KEY,
      grade TEXT NOT NULL,
      score INTEGER NOT NULL,
      computed_at INTEGER NOT NULL,
      a_plus_since INTEGER
    )`
    yield* sql`CREATE INDEX domain_results_a_plus ON domain_results (a_plus_since) WHERE a_plus_since IS NOT NULL`
  }),
  "0006_hall_of_fame_suppressions": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE hall_of_fame_suppressions (
      domain TEXT PRIMARY KEY,
      reason TEXT NOT NULL,
      operator TEXT NOT NULL,
      suppressed_at INTEGER NOT NULL
    )`
  }),
  "0007_hall_of_fame_operator_log": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE hall_of_fame_operator_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at INTEGER NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('suppress', 'lift')),
      domain TEXT NOT NULL,
      reason TEXT NOT NULL,
      operator TEXT NOT NULL
    )`
    // The log is evidence of who removed what and why: it is never rewritten.
    yield* appendOnly(sql, "hall_of_fame_operator_log", "the hall-of-fame operator log is append-only")
  })
}

/** One completed full scan, as the hall of fame needs it. */
export interface DomainResult {
  /** Normalised (lower-case A-labels), as the Scanner names it. */
  readonly domain: string
  readonly grade: string
  /** The percentage, 0-100. */
  readonly score: number
  /** Epoch milliseconds: when the scan's checks ran. */
  readonly computedAtMs: number
}

export interface OperatorAction {
  readonly domain: string
  readonly reason: string
  readonly operator: string
  readonly atMs: number
}

export class HallOfFameStore extends Effect.Service<HallOfFameStore>()("HallOfFameStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Store `result` as its domain's latest, unless a newer one is already stored. */
    const record = (result: DomainResult) => {
      const aPlusSince = result.grade === HALL_OF_FAME_GRADE ? result.computedAtMs : null
      return sql`INSERT INTO domain_results (domain, grade, score, computed_at, a_plus_since)
        VALUES (${result.domain}, ${result.grade}, ${result.score}, ${result.computedAtMs}, ${aPlusSince})
        ON CONFLICT (domain) DO UPDATE SET
          grade = excluded.grade,
          score = excluded.score,
          computed_at = excluded.computed_at,
          a_plus_since = CASE WHEN excluded.a_plus_since IS NULL THEN NULL
            ELSE coalesce(domain_results.a_plus_since, excluded.a_plus_since) END
        WHERE excluded.computed_at > domain_results.computed_at`.pipe(Effect.asVoid)
    }

    /** The hall of fame: newest run first, suppressed domains left out. */
    const list: Effect.Effect<HallOfFame, unknown> = Effect.map(
      sql<{ domain: string; score: number; grade: string; addedAt: number }>`
        SELECT r.domain AS domain, r.score AS score, r.grade AS grade, r.a_plus_since AS addedAt
        FROM domain_results r
        WHERE r.a_plus_since IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM hall_of_fame_suppressions s WHERE s.domain = r.domain)
        ORDER BY r.a_plus_since DESC, r.domain`,
      (rows) => ({
        entries: rows.map((r) => ({
          domain: domainOfRow(r.domain),
          score: Number(r.score),
          grade: r.grade,
          addedAt: Number(r.addedAt)
        })),
        total: rows.length
      })
    )

    const log = (action: "suppress" | "lift", a: OperatorAction) =>
      sql`INSERT INTO hall_of_fame_operator_log (at, action, domain, reason, operator)
        VALUES (${a.atMs}, ${action}, ${a.domain}, ${a.reason}, ${a.operator})`

    /** Hide `domain` (now and for any later result) until lifted; logged in the same transaction. */
    const suppress = (a: OperatorAction) =>
      sql
        .withTransaction(
          Effect.zipRight(
            sql`INSERT INTO hall_of_fame_suppressions (domain, reason, operator, suppressed_at)
              VALUES (${a.domain}, ${a.reason}, ${a.operator}, ${a.atMs})
              ON CONFLICT (domain) DO UPDATE SET reason = excluded.reason, operator = excluded.operator,
                suppressed_at = excluded.suppressed_at`,
            log("suppress", a)
          )
        )
        .pipe(Effect.asVoid)

    /** Lift a suppression; false when `domain` was not suppressed (nothing is logged then). */
    const lift = (a: OperatorAction) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const removed = yield* sql<{ domain: string }>`
            DELETE FROM hall_of_fame_suppressions WHERE domain = ${a.domain} RETURNING domain`
          if (removed.length === 0) return false
          yield* log("lift", a)
          return true
        })
      )

    const suppressions = sql<{ domain: string; reason: string; operator: string; suppressed_at: number }>`
      SELECT domain, reason, operator, suppressed_at FROM hall_of_fame_suppressions ORDER BY domain`

    return { record, list, suppress, lift, suppressions }
  })
}) {}
