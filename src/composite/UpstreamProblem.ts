/**
 * What a scan composite fails with when it cannot produce a result at all (DESIGN.md principle 7).
 * Narrower failures (one server stalled, one list refused) stay inside results as `unknown`.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The question the whole result rests on (e.g. the MX set) could not be answered: SPEC's 500. */
export class UpstreamProblem extends Schema.TaggedError<UpstreamProblem>()(
  "UpstreamProblem",
  { error: Schema.String },
  HttpApiSchema.annotations({
    status: 500,
    description: "Scan failed or upstream resolver problem; retry after a few seconds"
  })
) {}
