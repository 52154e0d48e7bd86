/**
 * The error bodies of the API. Every non-2xx response is `{ "error": string }` (SPEC.md "Errors");
 * a few carry documented extras (`inconclusive` on the CSP 502, `retryAfter` beside the
 * `Retry-After` header on 429). Tagged, so the encoder can tell them apart; the HTTP edge
 * (http/edge/Edge.ts) drops `_tag` from the body.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const status = <A>(code: number, description: string) =>
  HttpApiSchema.annotations<A>({ status: code, description })

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  { error: Schema.String },
  status<BadRequest>(400, "Invalid or missing parameter")
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { error: Schema.String },
  status<Unauthorized>(401, "Missing or wrong bearer token")
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { error: Schema.String },
  status<Forbidden>(403, "Not allowed from this client")
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { error: Schema.String },
  status<NotFound>(404, "Not found")
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { error: Schema.String },
  status<PayloadTooLarge>(413, "Request body too large")
) {}

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  {
    error: Schema.String,
    /** Seconds until a retry may succeed; also sent as the `Retry-After` header. */
    retryAfter: Schema.Int
  },
  status<TooManyRequests>(429, "Abuse protection triggered; retry after Retry-After seconds")
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { error: Schema.String },
  status<InternalError>(500, "Scan failed or upstream resolver problem; retry after a few seconds")
) {}

export class Inconclusive extends Schema.TaggedError<Inconclusive>()(
  "Inconclusive",
  { error: Schema.String, inconclusive: Schema.Literal(true) },
  status<Inconclusive>(502, "CSP scan inconclusive: no page could be crawled")
) {}

export class Unavailable extends Schema.TaggedError<Unavailable>()(
  "Unavailable",
  { error: Schema.String },
  status<Unavailable>(503, "Temporary dependency outage; retry later")
) {}
