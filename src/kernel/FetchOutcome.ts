/**
 * HTTPS fetches kept as values, shared by BIMI (logo, certificate) and MTA-STS (policy file).
 * Every fetch goes through the scan's Facts (memoised, over the guarded Web client); a refused or
 * failed fetch becomes an outcome, so `analyse` functions stay pure and can say why.
 */
import { Effect } from "effect"
import type { FactsShape } from "./Facts.ts"
import type { WebRequestOptions } from "../net/Web.ts"

/** The door these fetches need: the scan's Facts. */
export type WebFetcher = Pick<FactsShape, "fetch">

/** A fetch kept as a value: the response's essentials, or the failure. */
export type FetchOutcome =
  | {
      readonly url: string
      readonly status: number
      readonly contentType: string | null
      readonly body: Uint8Array
      readonly finalUrl: string
      readonly redirects: number
    }
  | { readonly url: string; readonly error: string; readonly reason: string }

export const isFetchError = (f: FetchOutcome): f is Extract<FetchOutcome, { readonly error: string }> =>
  "error" in f

/** Fetches `url` and keeps the outcome; a refused or failed fetch is a value, not a failure. */
export const fetchOutcome = (
  web: WebFetcher,
  url: string,
  options: WebRequestOptions
): Effect.Effect<FetchOutcome> =>
  web.fetch(url, options).pipe(
    Effect.map((r): FetchOutcome => ({
      url,
      status: r.status,
      contentType: r.headers["content-type"] ?? null,
      body: r.body,
      finalUrl: r.finalUrl,
      redirects: r.redirects.length
    })),
    Effect.catchAll((e) => Effect.succeed<FetchOutcome>({ url, error: e.message, reason: e.reason }))
  )
