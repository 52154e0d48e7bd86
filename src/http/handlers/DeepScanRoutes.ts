/**
 * POST /scan/deep and GET /scan/deep/{scan_id} over the durable jobs of `jobs/DeepScans.ts`
 * (docs/cluster.md): the HTTP side only, the client's own rate limit and the contract's shapes.
 * The 202 names the job's URL in `Location` (RFC 9110 §15.3.3: the status can be polled there).
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { NotFound, TooManyRequests } from "../../api/Errors.ts"
import { type DeepScanAccepted, type DeepScanType, DeepScans } from "../../jobs/DeepScans.ts"
import { metered } from "../edge/Limits.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"

/**
 * Deep scans are the heaviest work a caller can start: a bucket of their own (`metered`), beside
 * the edge's costly-route bucket. Only a new job takes a token; asking again for a reused one is free.
 */
/** POST /scan/deep: a new job, or the one already under way for the same domain and type. */
export const submitDeepScan = (domain: Domain, type: DeepScanType) =>
  Effect.gen(function* () {
    const state = yield* metered("deepScan", (charge) =>
      Effect.flatMap(DeepScans, (jobs) => jobs.submit(domain, type, charge))
    )
    const location = `${yield* publicBaseUrl}/scan/deep/${encodeURIComponent(state.scan_id)}`
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "Location", location))
    )
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

/** GET /scan/deep/{scan_id}: where the job stands. */
export const readDeepScan = (scanId: string) =>
  Effect.flatMap(DeepScans, (jobs) => jobs.get(scanId)).pipe(
    Effect.flatMap((state) =>
      state === undefined
        ? Effect.fail(new NotFound({ error: `no deep scan with id ${scanId}` }))
        : Effect.succeed(state)
    )
  )
