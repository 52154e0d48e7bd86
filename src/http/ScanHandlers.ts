/** Handlers of the scan group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect } from "effect"
import { Api } from "../Api.ts"
import { NotFound, TooManyRequests } from "../api/Errors.ts"
import { AppConfig } from "../Config.ts"
import { type DeepScanState, DeepScans } from "../jobs/DeepScans.ts"
import { scanNis2 } from "../scan/Nis2Scan.ts"
import { scanScore } from "../scan/ScanScore.ts"
import { makeBuckets } from "./Admission.ts"
import { clientAddress } from "./ClientAddress.ts"

const deepState = (s: DeepScanState) => ({
  success: s.status !== "failed",
  scan_id: s.scanId,
  domain: s.domain,
  type: s.type,
  status: s.status,
  estimated_time: s.estimatedSeconds,
  startedAt: s.startedAt,
  completedAt: s.completedAt,
  result: s.result,
  error: s.error
})

export const ScanHandlers = HttpApiBuilder.group(Api, "scan", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    // Deep scans are the heaviest work a caller can start: a bucket of their own, beside the edge's
    // costly-route bucket. Only a new job takes a token; asking again for a reused one is free.
    const deepBuckets = makeBuckets({ burst: config.deepScanBurst, perMinute: config.deepScanPerHour / 60 })
    return handlers
      .handle("quick", ({ urlParams }) => scanScore(urlParams.domain))
      .handle("full", ({ payload }) => scanScore(payload.domain))
      .handle("nis2", ({ urlParams }) => scanNis2(urlParams.domain, urlParams.lang))
      .handle("deep", ({ payload }) =>
        Effect.gen(function* () {
          const jobs = yield* DeepScans
          const client = yield* clientAddress
          const now = yield* Clock.currentTimeMillis
          const state = yield* jobs.submit(payload.domain, payload.type, () => deepBuckets.take(client, now))
          return {
            success: state.status !== "failed",
            scan_id: state.scanId,
            status: state.status,
            estimated_time: state.estimatedSeconds
          }
        }).pipe(
          Effect.catchTag("DeepScanRefused", (e) =>
            Effect.fail(
              new TooManyRequests({
                error: `too many deep scans from your address; retry in ${e.retryAfter} s`,
                retryAfter: e.retryAfter
              })
            )
          )
        )
      )
      .handle("deepResult", ({ path }) =>
        Effect.flatMap(DeepScans, (jobs) => jobs.get(path.scan_id)).pipe(
          Effect.flatMap((state) =>
            state === undefined
              ? Effect.fail(new NotFound({ error: `no deep scan with id ${path.scan_id}` }))
              : Effect.succeed(deepState(state))
          )
        )
      )
  })
)
