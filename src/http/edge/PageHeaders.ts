/**
 * What every page response carries (docs/pages.md "Headers"), so that our own pages pass our own
 * security-header checks (checks/headers):
 *
 * - `Content-Security-Policy` without 'unsafe-inline' or any script source: the pages run no script,
 *   style only from the style sheet file, images and form targets only from this origin, and
 *   `frame-ancestors 'none'` (CSP3 §6.4.2) so no other site frames them;
 * - `X-Frame-Options: DENY` for browsers before CSP frame-ancestors (RFC 7034), `nosniff`,
 *   `Referrer-Policy: no-referrer` (a report URL names the domain looked at), a Permissions-Policy
 *   that turns off the powerful features, and `Cross-Origin-Opener-Policy`;
 * - `Strict-Transport-Security` only when the page is served over HTTPS (RFC 6797 §7.2: never over
 *   plain HTTP): `PUBLIC_BASE_URL` says https, or a trusted proxy says `X-Forwarded-Proto: https`.
 *
 * An error a page route answers as JSON (the edge's refusals: 503 busy, 413, 403) is shown as a page
 * to a browser that asks for HTML, with the same status and Retry-After.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import type { Settings } from "../../Config.ts"
import { failurePage } from "../../pages/ErrorPages.ts"
import { trustedCidrs } from "./ClientAddress.ts"
import { API_DOCS_PATH, isPagePath } from "../pages/PagePaths.ts"
import { errorResponse, langOf } from "../pages/Respond.ts"
import { baseUrlFor } from "./PublicUrl.ts"

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

export const HSTS = "max-age=63072000; includeSubDomains"

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": PAGE_CSP,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin"
}

export type PageHeaderSettings = Pick<Settings, "publicBaseUrl" | "trustedProxies" | "allowedHosts">

const pathOf = (url: string) => {
  try {
    return new URL(url, "http://x").pathname
  } catch {
    return "/"
  }
}

/** The JSON error of a refusal, as text for a page (or undefined when the body is not one). */
const jsonError = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  if (response.body._tag !== "Uint8Array" || !response.body.contentType.startsWith("application/json"))
    return undefined
  try {
    const parsed = JSON.parse(new TextDecoder().decode(response.body.body)) as { error?: unknown }
    return typeof parsed.error === "string" ? parsed.error : undefined
  } catch {
    return undefined
  }
}

/** Wrap an app so that its page responses carry the page headers (and errors read as pages). */
export const withPageHeaders = (settings: PageHeaderSettings) => {
  const proxies = trustedCidrs(settings.trustedProxies)
  return <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const response = yield* app
      const path = pathOf(request.url)
      if (!isPagePath(path) && path !== API_DOCS_PATH) return response
      const https = baseUrlFor(
        {
          headers: request.headers,
          peer: request.remoteAddress._tag === "Some" ? request.remoteAddress.value : undefined,
          encrypted: false
        },
        {
          publicBaseUrl: settings.publicBaseUrl,
          trustedProxies: proxies,
          allowedHosts: settings.allowedHosts
        },
        "localhost"
      ).startsWith("https:")
      const error = response.status >= 400 ? jsonError(response) : undefined
      const shown =
        error !== undefined && (request.headers["accept"] ?? "").includes("text/html")
          ? HttpServerResponse.setHeaders(
              errorResponse(failurePage(langOf(request), path, response.status, error)),
              Object.fromEntries(
                Object.entries(response.headers).filter(([name]) => name.toLowerCase() !== "content-type")
              )
            )
          : response
      return HttpServerResponse.setHeaders(
        shown,
        https ? { ...PAGE_HEADERS, "Strict-Transport-Security": HSTS } : PAGE_HEADERS
      )
    })
}
