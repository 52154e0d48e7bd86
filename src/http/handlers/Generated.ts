/** A generator's answer at the HTTP edge: its record, or its `GenerateError` as the spec's 400. */
import { Effect, Either } from "effect"
import { BadRequest } from "../../api/Errors.ts"
import type { GenerateError } from "../../records/GenerateError.ts"

export const generated = <A>(result: Either.Either<A, GenerateError>): Effect.Effect<A, BadRequest> =>
  Either.match(result, {
    onLeft: (e) => Effect.fail(new BadRequest({ error: e.message })),
    onRight: Effect.succeed
  })
