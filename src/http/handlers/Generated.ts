/** A generator's answer at the HTTP edge: its record, or its `GenerateError` as the spec's 400. */
import { Effect, Either } from "effect"
import { BadRequest } from "../../api/Errors.ts"
import { GenerateError } from "../../records/GenerateError.ts"

export const generated = <A>(result: Either.Either<A, GenerateError>): Effect.Effect<A, BadRequest> =>
  Either.match(result, {
    onLeft: (e) => Effect.fail(new BadRequest({ error: e.message })),
    onRight: Effect.succeed
  })

/** A previewed generator's answer (composite/GeneratedPreview.ts), its `GenerateError` the spec's 400. */
export const previewedGenerated = <A, R>(
  answer: Effect.Effect<A, GenerateError, R>
): Effect.Effect<A, BadRequest, R> =>
  Effect.catchTag(answer, "GenerateError", (e) => Effect.fail(new BadRequest({ error: e.message })))
