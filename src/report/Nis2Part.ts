/**
 * The NIS2 section of the Everything Report: the NIS2 scorecard (`score/Nis2.ts`, docs/nis2.md) of
 * the same scan the rest of the report is built from, in English, without the scorecard's `cached`
 * flag (the report leaves it out everywhere, so that one cached scan gives one content hash).
 */
import { Schema } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { nis2Scorecard, Nis2Scorecard } from "../score/Nis2.ts"

export const Nis2Part = Nis2Scorecard.pipe(Schema.omit("cached"))
export type Nis2Part = typeof Nis2Part.Type

/** The NIS2 section of a report built from `scan`. */
export const nis2Of = (scan: ScanResult): Nis2Part => {
  const { cached: _cached, ...card } = nis2Scorecard(scan, "en")
  return card
}
