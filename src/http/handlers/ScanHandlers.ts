/** Handlers of the scan group: score, NIS2 scorecard and deep scans. */
import { HttpApiBuilder } from "@effect/platform"
import { Api } from "../../Api.ts"
import { scanNis2 } from "../../composite/Nis2Scan.ts"
import { scanScore } from "../../composite/ScanScore.ts"
import { previewRoute } from "./PreviewRoute.ts"
import { readDeepScan, submitDeepScan } from "./DeepScanRoutes.ts"

export const ScanHandlers = HttpApiBuilder.group(Api, "scan", (handlers) =>
  handlers
    .handle("quick", ({ urlParams }) => scanScore(urlParams.domain, urlParams.names))
    .handle("full", ({ payload }) => scanScore(payload.domain, payload.names))
    .handle("preview", ({ payload }) => previewRoute(payload))
    .handle("nis2", ({ urlParams }) => scanNis2(urlParams.domain, urlParams.lang, urlParams.names))
    .handle("deep", ({ payload }) => submitDeepScan(payload.domain, payload.type))
    .handle("deepResult", ({ path }) => readDeepScan(path.scan_id))
)
