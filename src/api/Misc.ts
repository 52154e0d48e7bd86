/** The misc group: badge, PDF, hall of fame and health. */
import { HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { HallOfFame } from "../store/HallOfFame.ts"
import { DateTime } from "./Common.ts"
import { DomainPath } from "./Domain.ts"
import { BadRequest, Unavailable } from "./Errors.ts"
import { Endpoint } from "./Docs.ts"
import { cheap, exempt } from "./Cost.ts"

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

const badge = Endpoint.get("badge", "/badge/:domain", {
  summary: "Security grade badge",
  description:
    "An SVG badge with the domain's grade, for a README or a web site. The scan comes from the cache when fresh."
})
  .setPath(DomainPath)
  .addSuccess(HttpApiSchema.Text({ contentType: "image/svg+xml" }))
  .addError(BadRequest)

const pdf = Endpoint.get("pdf", "/pdf/:domain", {
  summary: "PDF report",
  description:
    "The domain's report as a PDF: the grade and its statement, categories with their status, the NIS2 summary, every issue with its guidance and every check. The same scan gives the same bytes. In Dutch with ?lang=nl, or when Accept-Language prefers Dutch (lang= wins); else English."
})
  .setPath(DomainPath)
  .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
  .addError(BadRequest)

const hallOfFame = Endpoint.get("hallOfFame", "/hall-of-fame", {
  summary: "Domains graded A+",
  description: "The domains whose latest scan was graded A+, with the time of that scan."
})
  .annotateContext(cheap)
  .addSuccess(HallOfFame)

const health = Endpoint.get("health", "/health", {
  summary: "Service health",
  description:
    "Whether the service and the services it depends on (the database, the resolver) are healthy. Answers 503 when it cannot serve."
})
  .annotateContext(exempt)
  .addSuccess(Health)
  .addError(Unavailable)

export class MiscApi extends HttpApiGroup.make("misc").add(badge).add(pdf).add(hallOfFame).add(health) {}
