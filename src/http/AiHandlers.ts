/** Handlers of the ai group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"
import { debugEmail } from "../mail/DebugEmail.ts"

export const AiHandlers = HttpApiBuilder.group(Api, "ai", (handlers) =>
  handlers
    .handle("explain", () => Effect.fail(notImplemented))
    .handle("fix", () => Effect.fail(notImplemented))
    .handle("debugEmail", ({ payload }) => debugEmail(payload.raw_email))
)
