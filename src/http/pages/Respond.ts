/**
 * How a page becomes a response: HTML in UTF-8, its status, `Retry-After` on 429 and 503, and the
 * language read from the request (`?lang=`, else `Accept-Language`). The security headers and the
 * compression are added to every page response at the edge (PageHeaders.ts, Compression.ts).
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import type { ErrorPage } from "../../pages/ErrorPages.ts"
import type { Html } from "../../pages/Html.ts"
import { type Lang, pickLang } from "../../pages/Text.ts"

export const HTML = "text/html; charset=utf-8"

/** The `lang` query value of a request URL, if any. */
const langQuery = (url: string): string | undefined => {
  try {
    return new URL(url, "http://x").searchParams.get("lang") ?? undefined
  } catch {
    return undefined
  }
}

/** The language of a page request. */
export const langOf = (request: HttpServerRequest.HttpServerRequest): Lang =>
  pickLang(langQuery(request.url), request.headers["accept-language"])

export const requestLang: Effect.Effect<Lang, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  langOf
)

/** A page: 200 unless said, never stored by shared caches without revalidation. */
export const htmlResponse = (page: Html, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(page.markup, {
    status,
    contentType: HTML,
    headers: { "Cache-Control": "no-cache", ...headers }
  })

/** An error page with its status and, for 429 and 503, its Retry-After. */
export const errorResponse = (page: ErrorPage) =>
  htmlResponse(
    page.html,
    page.status,
    page.retryAfter === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(page.retryAfter))) }
  )

/** A redirect after a form (RFC 9110 §15.4.4, 303 See Other: the next request is a GET). */
export const seeOther = (location: string) =>
  HttpServerResponse.empty({ status: 303, headers: { Location: location, "Cache-Control": "no-store" } })
