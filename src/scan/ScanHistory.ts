/**
 * ScanHistory: where `Scans` reports each full scan it has just computed (never a cached re-serve),
 * so the hall of fame follows the latest result of every domain (docs/presentation.md).
 *
 * The live layer scores the scan (pure, the same score GET /scan/quick serves) and stores domain,
 * grade, percentage and `computedAt` through `HallOfFameStore`. A scan that cannot grade its domain
 * (`Scannable.ts`) is not stored: a resolver outage says nothing about the domain and must not drop
 * it from the hall of fame. A failed write is logged, never the scan's failure.
 */
import { Context, Effect, Layer } from "effect"
import { score } from "../score/Score.ts"
import { HallOfFameStore } from "../store/HallOfFame.ts"
import { unscannableReason } from "../score/Scannable.ts"
import type { ScanResult } from "./ScanResult.ts"

export class ScanHistory extends Context.Tag("ScanHistory")<
  ScanHistory,
  { readonly record: (scan: ScanResult) => Effect.Effect<void> }
>() {
  /** The app's history: every fresh, gradable full scan stored in the database. */
  static readonly Live = Layer.effect(
    ScanHistory,
    Effect.map(HallOfFameStore, (store) => ({
      record: (scan: ScanResult) =>
        Effect.suspend(() => {
          if (scan.cached || unscannableReason(scan) !== null) return Effect.void
          const scored = score(scan)
          return store.record({
            domain: scan.domain,
            grade: scored.grade,
            score: scored.percentage,
            computedAtMs: Date.parse(scan.computedAt)
          })
        }).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logError(`the result of ${scan.domain} could not be stored for the hall of fame`, cause)
          )
        )
    }))
  ).pipe(Layer.provide(HallOfFameStore.Default))
}
