/**
 * The NIS2 section of the Everything Report: the place the NIS2 scorecard (src/score/Nis2*.ts, being
 * built separately) plugs in. Until it is wired, `nis2Of` answers null and the markdown leaves the
 * section out; the fields below are the scorecard's contract fields (SPEC "NIS2 scorecard").
 *
 * To wire it: replace `Nis2Part`'s inner struct by the scorecard's Schema (or a projection of it) and
 * make `nis2Of` compute it from the same scan and score the rest of the report is built from.
 */
import { Schema } from "effect"
import { DateTime, Nullable } from "../records/Schemas.ts"
import type { ScanResult } from "../scan/Scanner.ts"
import type { ScanScore } from "../score/Score.ts"

export const Nis2Part = Nullable(
  Schema.Struct({
    scannedAt: DateTime,
    total: Schema.Int,
    status: Schema.Literal("compliant", "partial", "non-compliant", "unscannable"),
    measures: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  })
)
export type Nis2Part = typeof Nis2Part.Type

/** The NIS2 section of a report built from `scan` and `score`: not available yet. */
export const nis2Of = (_scan: ScanResult, _score: ScanScore): Nis2Part => null
