/** Handlers of the web group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"

export const WebHandlers = HttpApiBuilder.group(Api, "web", (handlers) =>
  handlers
    .handle("headersAnalyze", () => Effect.fail(notImplemented))
    .handle("headersGenerate", () => Effect.fail(notImplemented))
    .handle("cspScan", () => Effect.fail(notImplemented))
)
