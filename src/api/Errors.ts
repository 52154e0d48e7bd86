/**
 * The error bodies of the API. Every non-2xx response is `{ "error": string }` (SPEC.md "Errors");
 * a few carry documented extras (`inconclusive` on the CSP 502, `retryAfter` beside the
 * `Retry-After` header on 429). Tagged, so the encoder can tell them apart; the HTTP edge
 * (http/edge/Edge.ts) drops `_tag` from the body.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * An error answered with `code`: the body `{ error }` every error shares, and the documented extras
 * of the few that carry more (`fields`).
 */
const ApiError =
  <Self>() =>
  <const Tag extends string, const Fields extends Schema.Struct.Fields = {}>(
    tag: Tag,
    code: number,
    description: string,
    fields?: Fields
  ) =>
    Schema.TaggedError<Self>()(
      tag,
      { error: Schema.String, ...(fields as Fields) },
      HttpApiSchema.annotations({ status: code, description })
    )

export class BadRequest extends ApiError<BadRequest>()("BadRequest", 400, "Invalid or missing parameter") {}

export class Unauthorized extends ApiError<Unauthorized>()(
  "Unauthorized",
  401,
  "Missing or wrong bearer token"
) {}

export class Forbidden extends ApiError<Forbidden>()("Forbidden", 403, "Not allowed from this client") {}

export class NotFound extends ApiError<NotFound>()("NotFound", 404, "Not found") {}

export class PayloadTooLarge extends ApiError<PayloadTooLarge>()(
  "PayloadTooLarge",
  413,
  "Request body too large"
) {}

export class TooManyRequests extends ApiError<TooManyRequests>()(
  "TooManyRequests",
  429,
  "Abuse protection triggered; retry after Retry-After seconds",
  {
    /** Seconds until a retry may succeed; also sent as the `Retry-After` header. */
    retryAfter: Schema.Int
  }
) {}

export class InternalError extends ApiError<InternalError>()(
  "InternalError",
  500,
  "Scan failed or upstream resolver problem; retry after a few seconds"
) {}

export class Inconclusive extends ApiError<Inconclusive>()(
  "Inconclusive",
  502,
  "CSP scan inconclusive: no page could be crawled",
  { inconclusive: Schema.Literal(true) }
) {}

export class Unavailable extends ApiError<Unavailable>()(
  "Unavailable",
  503,
  "Temporary dependency outage; retry later"
) {}
