/** Handlers of the misc group: badge, PDF, hall of fame (docs/presentation.md) and health. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { Unavailable } from "../../api/Errors.ts"
import { hallOfFame } from "../../report/HallOfFameList.ts"
import { Health } from "../edge/Health.ts"
import { badgeResponse, pdfResponse } from "./Presentation.ts"

export const MiscHandlers = HttpApiBuilder.group(Api, "misc", (handlers) =>
  handlers
    .handle("badge", ({ path }) => badgeResponse(path.domain))
    .handle("pdf", ({ path }) => pdfResponse(path.domain))
    .handle("hallOfFame", () => hallOfFame)
    // The node server's gatekeeper answers GET /health before this handler (Gatekeeper.ts); both
    // read the same background-refreshed state (Health.ts).
    .handle("health", () =>
      Effect.flatMap(Health, (health) => {
        const answer = health.answer()
        return answer.status === 200 ? Effect.succeed(answer.body) : Effect.fail(new Unavailable(answer.body))
      })
    )
)
