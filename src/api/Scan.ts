/** The scan group: quick score, full scan, NIS2 scorecard and deep scans. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Nis2Scorecard } from "../score/Nis2.ts"
import { Languages } from "../score/Nis2Text.ts"
import { ScanScore } from "../score/Score.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { BadRequest, NotFound, TooManyRequests } from "./Errors.ts"

/**
 * GET /scan/quick and POST /scan answer one Schema, declared by the score (src/score/Score.ts): the
 * union of the SPEC's shapes A and B, without conflict (docs/scoring.md "Shapes A and B").
 */
export { Grade } from "../score/Model.ts"
export { ScanScore } from "../score/Score.ts"

/** GET /scan/nis2 answers the scorecard Schema declared by the NIS2 model (src/score/Nis2.ts). */
export { MeasureId, Nis2Scorecard } from "../score/Nis2.ts"

/** The deep-scan shapes are declared by the jobs that produce them (src/jobs/DeepScans.ts). */
import { DeepScanAccepted, DeepScanState } from "../jobs/DeepScans.ts"
export { DeepScanAccepted, DeepScanState, DeepScanStatus } from "../jobs/DeepScans.ts"

export class ScanApi extends HttpApiGroup.make("scan")
  .add(
    HttpApiEndpoint.get("quick", "/scan/quick")
      .setUrlParams(DomainQuery)
      .addSuccess(ScanScore)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("full", "/scan").setPayload(DomainQuery).addSuccess(ScanScore).addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("nis2", "/scan/nis2")
      .setUrlParams(Schema.Struct({ domain: Domain, lang: Schema.optional(Schema.Literal(...Languages)) }))
      .addSuccess(Nis2Scorecard)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("deep", "/scan/deep")
      .setPayload(Schema.Struct({ domain: Domain, type: Schema.Literal("web", "mail") }))
      .addSuccess(DeepScanAccepted.pipe(HttpApiSchema.withEncoding({ kind: "Json" })), { status: 202 })
      .addError(BadRequest)
      .addError(TooManyRequests)
  )
  .add(
    HttpApiEndpoint.get("deepResult", "/scan/deep/:scan_id")
      .setPath(Schema.Struct({ scan_id: Schema.String.pipe(Schema.maxLength(128)) }))
      .addSuccess(DeepScanState)
      .addError(NotFound)
  ) {}
