/** Handlers of the report group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"

export const ReportHandlers = HttpApiBuilder.group(Api, "report", (handlers) =>
  handlers
    .handle("everything", () => Effect.fail(notImplemented))
    .handle("snapshotCreate", () => Effect.fail(notImplemented))
    .handle("snapshotCreateLegacy", () => Effect.fail(notImplemented))
    .handle("snapshotGet", () => Effect.fail(notImplemented))
)
