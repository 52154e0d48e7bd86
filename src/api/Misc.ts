/** The misc group: badge, PDF, hall of fame and health. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { HallOfFame } from "../store/HallOfFame.ts"
import { DateTime } from "./Common.ts"
import { Domain } from "./Domain.ts"
import { BadRequest, Unavailable } from "./Errors.ts"

export const ServiceHealth = Schema.Struct(
  { status: Schema.Literal("healthy", "degraded", "down") },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/** The union of health shapes A and B. */
export const Health = Schema.Struct({
  status: Schema.Literal("healthy", "degraded"),
  timestamp: DateTime,
  uptime: Schema.Int,
  services: Schema.Record({ key: Schema.String, value: ServiceHealth })
})

const DomainPath = Schema.Struct({ domain: Domain })

export class MiscApi extends HttpApiGroup.make("misc")
  .add(
    HttpApiEndpoint.get("badge", "/badge/:domain")
      .setPath(DomainPath)
      .addSuccess(HttpApiSchema.Text({ contentType: "image/svg+xml" }))
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("pdf", "/pdf/:domain")
      .setPath(DomainPath)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(BadRequest)
  )
  .add(HttpApiEndpoint.get("hallOfFame", "/hall-of-fame").addSuccess(HallOfFame))
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Health).addError(Unavailable)) {}
