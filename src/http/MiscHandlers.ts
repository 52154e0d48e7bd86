/** Handlers of the misc group: badge, PDF and hall of fame come with their issues; health is real. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented, Unavailable } from "../api/Errors.ts"
import { Health } from "./Health.ts"

export const MiscHandlers = HttpApiBuilder.group(Api, "misc", (handlers) =>
  handlers
    .handle("badge", () => Effect.fail(notImplemented))
    .handle("pdf", () => Effect.fail(notImplemented))
    .handle("hallOfFame", () => Effect.fail(notImplemented))
    // The node server's gatekeeper answers GET /health before this handler (Admission.ts); both
    // read the same background-refreshed state (Health.ts).
    .handle("health", () =>
      Effect.flatMap(Health, (health) => {
        const answer = health.answer()
        return answer.status === 200 ? Effect.succeed(answer.body) : Effect.fail(new Unavailable(answer.body))
      })
    )
)
