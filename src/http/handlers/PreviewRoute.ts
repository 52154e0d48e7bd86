/** POST /scan/preview over `composite/Preview.ts`: a change the preview refuses is the spec's 400. */
import { Effect } from "effect"
import { BadRequest } from "../../api/Errors.ts"
import type { PreviewBody } from "../../api/Scan.ts"
import { preview } from "../../composite/Preview.ts"

export const previewRoute = (payload: typeof PreviewBody.Type) =>
  preview(payload.domain, payload, payload.names).pipe(
    Effect.catchTag("PreviewRefused", (e) => Effect.fail(new BadRequest({ error: e.message })))
  )
