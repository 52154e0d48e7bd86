/** Small schema pieces shared by the API groups. */
import { Schema } from "effect"
import { Domain } from "./Domain.ts"

export { DateTime, Strings } from "../records/Schemas.ts"
export { Status } from "../kernel/Status.ts"

/** An object whose inner fields the spec leaves open ("not shown"); the group's issue defines them. */
export const Open = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const Format = Schema.Literal("json", "markdown")

/** `?domain=` plus an optional `format=json|markdown`. */
export const DomainFormatQuery = Schema.Struct({ domain: Domain, format: Schema.optional(Format) })
