/**
 * Where fresh full scans enter the history: the ScanHistory that `Scans` reports each computed scan
 * to (scan/ScanHistory.ts, never a cached re-serve), recording it for the hall of fame as before and
 * appending it to its domain's history (Histories.ts). Neither write can fail the scan.
 */
import { Effect, Layer } from "effect"
import { ScanHistory } from "../scan/ScanHistory.ts"
import { Histories } from "./Histories.ts"

export const ScanHistoryWithChain = Layer.effect(
  ScanHistory,
  Effect.gen(function* () {
    const hallOfFame = yield* ScanHistory
    const histories = yield* Histories
    return {
      record: (scan) => Effect.zipRight(hallOfFame.record(scan), Effect.asVoid(histories.record(scan)))
    } satisfies ScanHistory["Type"]
  })
).pipe(Layer.provide(ScanHistory.Live))
