/** The scan group: quick score, full scan, NIS2 scorecard and deep scans. */
import { HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Nis2Scorecard } from "../score/Nis2.ts"
import { Languages } from "../score/Nis2Text.ts"
import { ScanScore } from "../score/Score.ts"
import {
  Domain,
  DomainNamesBody,
  DomainNamesQuery,
  ListedNames,
  ListedNamesField,
  namesUnderDomain
} from "./Domain.ts"
import { PreviewScore } from "../composite/Preview.ts"
import { PreviewFileInput, PreviewRecordInput, PreviewRemovalInput } from "../composite/PreviewInput.ts"
import { BadRequest, NotFound, TooManyRequests } from "./Errors.ts"

/**
 * GET /scan/quick and POST /scan answer one Schema, declared by the score (src/score/Score.ts): the
 * union of the SPEC's shapes A and B, without conflict (docs/scoring.md "Shapes A and B").
 */
export { Grade } from "../score/Model.ts"
export { ScanScore } from "../score/Score.ts"

/** POST /scan/preview answers the preview's Schema, declared by the composite (src/composite/Preview.ts). */
export { PreviewScore } from "../composite/Preview.ts"

/** `{ domain, records, remove?, files?, names? }`: what a preview lays over the live domain. */
export const PreviewBody = Schema.Struct({
  domain: Domain,
  records: Schema.Array(PreviewRecordInput),
  remove: Schema.optional(Schema.Array(PreviewRemovalInput)),
  files: Schema.optional(Schema.Array(PreviewFileInput)),
  names: Schema.optional(ListedNamesField)
}).pipe(Schema.filter(namesUnderDomain))

/** GET /scan/nis2 answers the scorecard Schema declared by the NIS2 model (src/score/Nis2.ts). */
export { MeasureId, Nis2Scorecard } from "../score/Nis2.ts"

/** The deep-scan shapes are declared by the jobs that produce them (src/jobs/DeepScans.ts). */
import { DeepScanAccepted, DeepScanState } from "../jobs/DeepScans.ts"
import { Endpoint } from "./Docs.ts"
export { DeepScanAccepted, DeepScanState, DeepScanStatus } from "../jobs/DeepScans.ts"

const quick = Endpoint.get("quick", "/scan/quick", {
  summary: "Score a domain",
  description:
    "Scans the domain (DNS, DNSSEC, email authentication, mail transport, web security), or answers from the scan cache, and returns its grade, percentage, categories, issues under their catalogue ids and recommendations ordered by the points they regain (docs/scoring.md). With names, the takeover check also examines those names of the domain (a scan of its own, not kept in the domain's history)."
})
  .setUrlParams(DomainNamesQuery)
  .addSuccess(ScanScore)
  .addError(BadRequest)

const full = Endpoint.post("full", "/scan", {
  summary: "Score a domain (POST form)",
  description:
    "The same scan and score as GET /scan/quick, with the domain (and the optional names, a comma-separated string or an array) in the JSON body."
})
  .setPayload(DomainNamesBody)
  .addSuccess(ScanScore)
  .addError(BadRequest)

const preview = Endpoint.post("preview", "/scan/preview", {
  summary: "Preview records before publishing them",
  description:
    "A full scan in which the given records replace the live RRsets of their name and type (remove: RRsets deleted; files: an MTA-STS policy or security.txt served in place of the live one), everything else read live; answers what POST /scan answers, with preview: true, compared (the live score beside it and the changes from live to preview in plain words) and notJudged (DNSSEC verdicts the preview takes from the zone). At most 50 records, all within the domain, each value read by the parser its check uses: 400 naming the record otherwise. Never stored (docs/preview.md)."
})
  .setPayload(PreviewBody)
  .addSuccess(PreviewScore)
  .addError(BadRequest)

const nis2 = Endpoint.get("nis2", "/scan/nis2", {
  summary: "NIS2 readiness scorecard",
  description:
    "Reads the domain's scan as evidence for the measures of Article 21(2) of Directive (EU) 2022/2555 and answers a scorecard per measure with its fixes and critical gaps, in English or Dutch (lang=nl). Evidence, not a compliance certificate."
})
  .setUrlParams(
    Schema.Struct({
      domain: Domain,
      lang: Schema.optional(Schema.Literal(...Languages)),
      names: Schema.optional(ListedNames)
    }).pipe(Schema.filter(namesUnderDomain))
  )
  .addSuccess(Nis2Scorecard)
  .addError(BadRequest)

const deep = Endpoint.post("deep", "/scan/deep", {
  summary: "Start a deep scan",
  description:
    "Starts a durable deep scan of the domain (type web: a crawl for the content security policy; type mail: the mail checks in depth) and answers 202 with its scan_id. Poll GET /scan/deep/{scan_id} for the result."
})
  .setPayload(Schema.Struct({ domain: Domain, type: Schema.Literal("web", "mail") }))
  .addSuccess(DeepScanAccepted.pipe(HttpApiSchema.withEncoding({ kind: "Json" })), { status: 202 })
  .addError(BadRequest)
  .addError(TooManyRequests)

const deepResult = Endpoint.get("deepResult", "/scan/deep/:scan_id", {
  summary: "Result of a deep scan",
  description:
    "The state of a deep scan started with POST /scan/deep: pending or running with progress, then completed with its result or failed with the reason. 404 for an unknown scan_id."
})
  .setPath(Schema.Struct({ scan_id: Schema.String.pipe(Schema.maxLength(128)) }))
  .addSuccess(DeepScanState)
  .addError(NotFound)

export class ScanApi extends HttpApiGroup.make("scan")
  .add(quick)
  .add(full)
  .add(preview)
  .add(nis2)
  .add(deep)
  .add(deepResult) {}
