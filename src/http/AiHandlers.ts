/** Handlers of the ai group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "../Api.ts"
import { BadRequest, notImplemented } from "../api/Errors.ts"
import { AiModel } from "../net/AiModel.ts"
import { explain, resolveIssue, type UnknownIssue } from "../scan/Explain.ts"
import { fix } from "../scan/Fix.ts"

/** An unknown issue id is the spec's 400 `{error}`. */
const badRequest = <A, R>(self: Effect.Effect<A, UnknownIssue, R>) =>
  Effect.mapError(self, (e) => new BadRequest({ error: e.message }))

export const AiHandlers = HttpApiBuilder.group(Api, "ai", (handlers) =>
  handlers
    .handle("explain", ({ payload }) => explain(payload.issue_type, payload.context).pipe(badRequest))
    .handle("fix", ({ payload }) =>
      Effect.flatMap(resolveIssue(payload.issue), (id) =>
        fix(id, payload.domain, payload.current_config)
      ).pipe(badRequest)
    )
    .handle("debugEmail", () => Effect.fail(notImplemented))
).pipe(Layer.provide(AiModel.Default))
