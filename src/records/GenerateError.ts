/**
 * The one error every generator returns (as the left of an `Either`): the input cannot produce a
 * valid record. `message` says what is wrong and what to do; `field`, where one input is at fault,
 * names it. The HTTP layer turns it into the spec's 400 `{ "error": message }`.
 */
import { Schema } from "effect"

export class GenerateError extends Schema.TaggedError<GenerateError>()("GenerateError", {
  message: Schema.String,
  field: Schema.optional(Schema.String)
}) {}
