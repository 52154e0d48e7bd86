/**
 * What the record generators' endpoints (SPF, DMARC, TLSA) share: `POST <path>` with the
 * generator's request, and an optional `?domain=` naming the domain the record is for. Named, the
 * record is previewed over that domain's live scan (docs/preview.md), so the request is costly and
 * may meet 429 (Cost.ts); unnamed, it is pure computation.
 */
import type { HttpApiEndpoint } from "@effect/platform"
import type { Schema } from "effect"
import { cheapUnless } from "./Cost.ts"
import { GeneratorPreviewQuery } from "./Domain.ts"
import { BadRequest, TooManyRequests } from "./Errors.ts"

export const generates =
  <P extends Schema.Schema.Any, S extends Schema.Schema.Any>(request: P, success: S) =>
  <Name extends string>(endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, "POST">) =>
    endpoint
      .annotateContext(cheapUnless("domain"))
      .setPayload(request)
      .setUrlParams(GeneratorPreviewQuery)
      .addSuccess(success)
      .addError(BadRequest)
      .addError(TooManyRequests)
