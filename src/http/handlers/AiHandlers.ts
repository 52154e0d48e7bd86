/** Handlers of the ai group: explanations and fixes (docs/ai.md), raw-email debugging (docs/debug-email.md). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest } from "../../api/Errors.ts"
import { debugEmail } from "../../mail/DebugEmail.ts"
import { explain, resolveIssue, type UnknownIssue } from "../../ai/Explain.ts"
import { fixPreviewed } from "../../ai/FixPreview.ts"

/** An unknown issue id is the spec's 400 `{error}`. */
const badRequest = <A, R>(self: Effect.Effect<A, UnknownIssue, R>) =>
  Effect.mapError(self, (e) => new BadRequest({ error: e.message }))

export const AiHandlers = HttpApiBuilder.group(Api, "ai", (handlers) =>
  handlers
    .handle("explain", ({ payload }) => explain(payload.issue_type, payload.context).pipe(badRequest))
    .handle("fix", ({ payload }) =>
      Effect.flatMap(resolveIssue(payload.issue), (id) =>
        fixPreviewed(id, payload.domain, payload.current_config)
      ).pipe(badRequest)
    )
    .handle("debugEmail", ({ payload }) => debugEmail(payload.raw_email))
)
