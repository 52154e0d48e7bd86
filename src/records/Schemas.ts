/** Small schema pieces that result schemas everywhere share (checks, records, the contract). */
import { Schema } from "effect"

export const DateTime = Schema.String.annotations({
  description: "RFC 3339 date-time",
  jsonSchema: { type: "string", format: "date-time" }
})

export const Strings = Schema.Array(Schema.String)

export const Nullable = Schema.NullOr
