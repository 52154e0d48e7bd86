/**
 * POST /scan/deep and GET /scan/deep/{scan_id} over the durable jobs of `jobs/DeepScans.ts`
 * (docs/cluster.md): the HTTP side only, the client's own rate limit and the contract's shapes.
 */
import { Clock, Effect } from "effect"
import { NotFound, TooManyRequests } from "../../api/Errors.ts"
import { AppConfig } from "../../Config.ts"
import { type DeepScanAccepted, type DeepScanType, DeepScans } from "../../jobs/DeepScans.ts"
import { makeBuckets } from "../edge/Admission.ts"
import { clientAddress } from "../edge/ClientAddress.ts"

/**
 * The routes, with their per-client bucket. Deep scans are the heaviest work a caller can start: a
 * bucket of their own, beside the edge's costly-route bucket. Only a new job takes a token; asking
 * again for a reused one is free.
 */
export const deepScanRoutes = Effect.map(AppConfig, (config) => {
  const buckets = makeBuckets({ burst: config.deepScanBurst, perMinute: config.deepScanPerHour / 60 })

  const submit = (domain: string, type: DeepScanType) =>
    Effect.gen(function* () {
      const jobs = yield* DeepScans
      const client = yield* clientAddress
      const now = yield* Clock.currentTimeMillis
      const state = yield* jobs.submit(domain, type, () => buckets.take(client, now))
      return {
        success: state.success,
        scan_id: state.scan_id,
        status: state.status,
        estimated_time: state.estimated_time
      } satisfies DeepScanAccepted
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

  const read = (scanId: string) =>
    Effect.flatMap(DeepScans, (jobs) => jobs.get(scanId)).pipe(
      Effect.flatMap((state) =>
        state === undefined
          ? Effect.fail(new NotFound({ error: `no deep scan with id ${scanId}` }))
          : Effect.succeed(state)
      )
    )

  return { submit, read }
})
