/** Small schema pieces shared by the API groups. */
import { Schema } from "effect"
import { CheckStatuses } from "../checks/Status.ts"
import { Domain } from "./Domain.ts"

export const DateTime = Schema.String.annotations({
  description: "RFC 3339 date-time",
  jsonSchema: { type: "string", format: "date-time" }
})

/** An object whose inner fields the spec leaves open ("not shown"); the group's issue defines them. */
export const Open = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const Strings = Schema.Array(Schema.String)

export const Format = Schema.Literal("json", "markdown")

/** `?domain=` plus an optional `format=json|markdown`. */
export const DomainFormatQuery = Schema.Struct({ domain: Domain, format: Schema.optional(Format) })

/** Every check's verdict (src/checks/Status.ts). */
export const Status = Schema.Literal(...CheckStatuses).annotations({
  description:
    "pass / warning / fail / missing / not-applicable / unknown (a lookup failed: not the same as missing)"
})
