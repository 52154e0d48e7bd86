/** Handlers of the scan group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"
import { scanNis2 } from "../scan/Nis2Scan.ts"
import { scanScore } from "../scan/ScanScore.ts"

export const ScanHandlers = HttpApiBuilder.group(Api, "scan", (handlers) =>
  handlers
    .handle("quick", ({ urlParams }) => scanScore(urlParams.domain))
    .handle("full", ({ payload }) => scanScore(payload.domain))
    .handle("nis2", ({ urlParams }) => scanNis2(urlParams.domain, urlParams.lang))
    .handle("deep", () => Effect.fail(notImplemented))
    .handle("deepResult", () => Effect.fail(notImplemented))
)
