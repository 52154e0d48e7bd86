/** Handlers of the scan group: score, NIS2 scorecard and deep scans. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { scanNis2 } from "../../composite/Nis2Scan.ts"
import { scanScore } from "../../composite/ScanScore.ts"
import { deepScanRoutes } from "./DeepScanRoutes.ts"

export const ScanHandlers = HttpApiBuilder.group(Api, "scan", (handlers) =>
  Effect.map(deepScanRoutes, (deep) =>
    handlers
      .handle("quick", ({ urlParams }) => scanScore(urlParams.domain, urlParams.names))
      .handle("full", ({ payload }) => scanScore(payload.domain, payload.names))
      .handle("nis2", ({ urlParams }) => scanNis2(urlParams.domain, urlParams.lang, urlParams.names))
      .handle("deep", ({ payload }) => deep.submit(payload.domain, payload.type))
      .handle("deepResult", ({ path }) => deep.read(path.scan_id))
  )
)
