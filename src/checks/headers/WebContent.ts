/**
 * What the home page's response says beyond its security headers, judged as the MDN HTTP
 * Observatory judges it (its tests `cookies`, `subresource-integrity` and
 * `cross-origin-resource-sharing`, whose result names these results carry): the cookies it sets
 * (RFC 6265bis), the integrity of the scripts it loads from elsewhere (W3C Subresource Integrity),
 * and whom it lets read it across origins (WHATWG Fetch, CORS). Pure and total.
 */
import { Schema } from "effect"
import { parse as parseDomain } from "tldts"
import { parseSetCookie, replacedLater, type SetCookie, storageRefusal } from "../../records/SetCookie.ts"
import { Strings } from "../../records/Schemas.ts"
import type { ScriptElement } from "../csp/CspExtract.ts"

export const CookieEntry = Schema.Struct({
  name: Schema.String,
  secure: Schema.Boolean,
  httpOnly: Schema.Boolean,
  /** The SameSite attribute as sent (`invalid`: a value browsers do not know); null when not sent. */
  sameSite: Schema.NullOr(Schema.Literal("strict", "lax", "none", "invalid")),
  /** The name looks like a session or login cookie (contains `sess` or `login`, as the Observatory reads it). */
  session: Schema.Boolean,
  /**
   * Browsers store it: false when its name prefix (`__Host-`, `__Secure-`) or Domain is violated, or
   * a later Set-Cookie of the response replaces it.
   */
  accepted: Schema.Boolean,
  issues: Strings
})
export type CookieEntry = typeof CookieEntry.Type

/**
 * The Observatory's failing `cookies` results, least bad first: a cookie found worse than the
 * result so far replaces it (`onlyIfWorse`).
 */
const COOKIE_ORDER = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag"
] as const

/** The Observatory's `cookies` results, best first. */
export const COOKIE_RESULTS = [
  "cookies-not-found",
  "cookies-secure-with-httponly-sessions-and-samesite",
  "cookies-secure-with-httponly-sessions",
  ...COOKIE_ORDER
] as const
export type CookieResult = (typeof COOKIE_RESULTS)[number]

export const CookiesResult = Schema.Struct({
  result: Schema.Literal(...COOKIE_RESULTS),
  /** The Observatory's pass: no cookie, or every cookie Secure and every session cookie HttpOnly. */
  pass: Schema.Boolean,
  cookies: Schema.Array(CookieEntry)
})
export type CookiesResult = typeof CookiesResult.Type

/** The Observatory's `subresource-integrity` results that a worse script replaces, best first. */
const SRI_ORDER = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html"
] as const

export const SRI_RESULTS = [
  ...SRI_ORDER,
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
  "sri-not-implemented-but-no-scripts-loaded"
] as const
export type SriResult = (typeof SRI_RESULTS)[number]

export const ExternalScript = Schema.Struct({
  src: Schema.String,
  integrity: Schema.NullOr(Schema.String),
  crossorigin: Schema.NullOr(Schema.String),
  /** Loaded over https (a protocol-relative `//host/...` is not counted as secure, as the Observatory reads it). */
  secureScheme: Schema.Boolean
})

export const SriJudgement = Schema.Struct({
  result: Schema.Literal(...SRI_RESULTS),
  pass: Schema.Boolean,
  /** Scripts loaded from another site (another registrable domain, or protocol-relative). */
  externalScripts: Schema.Array(ExternalScript),
  /** Only the first part of the page was read: scripts further down were not seen. */
  bodyTruncated: Schema.Boolean
})
export type SriJudgement = typeof SriJudgement.Type

export const CORS_RESULTS = [
  "cross-origin-resource-sharing-not-implemented",
  "cross-origin-resource-sharing-implemented-with-public-access",
  "cross-origin-resource-sharing-implemented-with-restricted-access",
  "cross-origin-resource-sharing-implemented-with-universal-access"
] as const

export const CorsResult = Schema.Struct({
  result: Schema.Literal(...CORS_RESULTS),
  pass: Schema.Boolean,
  /** The Origin the request was sent with. */
  origin: Schema.String,
  allowOrigin: Schema.NullOr(Schema.String),
  allowCredentials: Schema.Boolean,
  issues: Strings
})
export type CorsResult = typeof CorsResult.Type

/** Worse than `old` in `order`, as the Observatory's `onlyIfWorse` picks. */
const worse = <A>(next: A, old: A | null, order: ReadonlyArray<A>): A =>
  old === null || order.indexOf(next) > order.indexOf(old) ? next : old

const REPLACED =
  "a later Set-Cookie of the same response replaces it (same name, domain and path): browsers keep only that one"

const cookieIssues = (c: SetCookie, session: boolean, rejected: string | null): Array<string> => {
  const out: Array<string> = []
  if (rejected !== null) out.push(rejected)
  if (!c.secure)
    out.push("no Secure attribute: the cookie is also sent over plain HTTP (RFC 6265bis 4.1.2.5)")
  if (session && !c.httpOnly)
    out.push("a session cookie without HttpOnly can be read by scripts (RFC 6265bis 4.1.2.6)")
  if (c.sameSite === "invalid") out.push("SameSite has a value browsers do not know (Strict, Lax or None)")
  if (c.sameSite === "none" && !c.secure) out.push("SameSite=None without Secure is rejected by browsers")
  return out
}

/**
 * The Observatory's cookies test over the Set-Cookie headers of the page and the redirects to it
 * (`host`, `path`: the page's). `hsts` is whether the page's HSTS protects (a cookie without Secure
 * is then never sent over plain HTTP).
 */
export const judgeCookies = (
  setCookies: ReadonlyArray<string>,
  host: string,
  hsts: boolean,
  path = "/"
): CookiesResult => {
  let result: CookieResult | null = null
  let missingSameSite = false
  const cookies: Array<CookieEntry> = []
  // Ignored headers, and those without a name (the Observatory keeps only named cookies), are left out.
  const parsed = setCookies
    .map(parseSetCookie)
    .filter((c): c is SetCookie => c !== null && c.name !== "" && c.name !== "heroku-session-affinity")
  const refusals = parsed.map((c) => storageRefusal(c, host))
  const replaced = replacedLater(
    parsed,
    refusals.map((r) => r === null),
    path
  )
  for (const [i, c] of parsed.entries()) {
    const lower = c.name.toLowerCase()
    const session = lower.includes("login") || lower.includes("sess")
    const rejected = refusals[i] ?? null
    cookies.push({
      name: c.name,
      secure: c.secure,
      httpOnly: c.httpOnly,
      sameSite: c.sameSite,
      session,
      accepted: rejected === null && !replaced[i],
      issues: replaced[i] ? [REPLACED] : cookieIssues(c, session, rejected)
    })
    // The raw header's SameSite is checked before storage, the rest only of stored cookies.
    if (c.sameSite === "invalid") result = worse("cookies-samesite-flag-invalid", result, COOKIE_ORDER)
    if (rejected !== null || replaced[i]) continue
    const sameSite = c.sameSite === "invalid" ? null : c.sameSite
    if (!c.secure && sameSite === "none")
      result = worse("cookies-samesite-flag-invalid", result, COOKIE_ORDER)
    if (!c.secure)
      result = worse(
        hsts ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag",
        result,
        COOKIE_ORDER
      )
    if (lower.includes("csrf") && sameSite === null)
      result = worse("cookies-anticsrf-without-samesite-flag", result, COOKIE_ORDER)
    if (session && !c.secure)
      result = worse(
        hsts
          ? "cookies-session-without-secure-flag-but-protected-by-hsts"
          : "cookies-session-without-secure-flag",
        result,
        COOKIE_ORDER
      )
    if (session && !c.httpOnly) result = worse("cookies-session-without-httponly-flag", result, COOKIE_ORDER)
    if (sameSite === null) missingSameSite = true
  }
  const stored = cookies.filter((c) => c.accepted)
  const final: CookieResult =
    stored.length === 0
      ? "cookies-not-found"
      : (result ??
        (missingSameSite
          ? "cookies-secure-with-httponly-sessions"
          : "cookies-secure-with-httponly-sessions-and-samesite"))
  return {
    result: final,
    pass:
      final === "cookies-not-found" ||
      final === "cookies-secure-with-httponly-sessions" ||
      final === "cookies-secure-with-httponly-sessions-and-samesite",
    cookies
  }
}

const SRI_PASS = new Set<SriResult>([
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-not-implemented-response-not-html",
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
  "sri-not-implemented-but-no-scripts-loaded"
])

/** The registrable domain (public suffix + 1) of a host, or the host itself. */
const site = (host: string): string => parseDomain(host).domain ?? host

/**
 * The Observatory's Subresource Integrity test over the page's `<script>` elements. A script from
 * the same site (relative, or a full URL in the same registrable domain) needs no integrity; one
 * from elsewhere should carry `integrity` (W3C SRI §3.3) and be loaded over https.
 */
export const judgeSri = (input: {
  readonly html: boolean
  readonly scripts: ReadonlyArray<ScriptElement>
  readonly host: string
  readonly pageHttps: boolean
  readonly bodyTruncated: boolean
}): SriJudgement => {
  const base = {
    externalScripts: [] as Array<typeof ExternalScript.Type>,
    bodyTruncated: input.bodyTruncated
  }
  if (!input.html) return { ...base, result: "sri-not-implemented-response-not-html", pass: true }
  let result: SriResult | null = null
  for (const s of input.scripts) {
    if (s.src === null) continue
    const relativeProtocol = /^\/\/[^/]/.test(s.src)
    const fullUrl = /^https?:\/\//i.test(s.src)
    const relativeOrigin = !relativeProtocol && !fullUrl
    const sameSite =
      relativeProtocol ||
      relativeOrigin ||
      (URL.canParse(s.src) && site(new URL(s.src).hostname) === site(input.host))
    const secureOrigin = relativeOrigin || (sameSite && !relativeProtocol)
    const secureScheme = (fullUrl && /^https:/i.test(s.src)) || (relativeOrigin && input.pageHttps)
    if (secureOrigin) {
      // The Observatory's bonus: integrity even on the page's own scripts.
      if (s.integrity !== null && secureScheme && result === null)
        result = "sri-implemented-and-all-scripts-loaded-securely"
      continue
    }
    base.externalScripts.push({
      src: s.src,
      integrity: s.integrity,
      crossorigin: s.crossorigin,
      secureScheme
    })
    const next: SriResult | null =
      s.integrity !== null
        ? secureScheme
          ? null
          : "sri-implemented-but-external-scripts-not-loaded-securely"
        : secureScheme
          ? "sri-not-implemented-but-external-scripts-loaded-securely"
          : "sri-not-implemented-and-external-scripts-not-loaded-securely"
    if (next !== null) result = worse(next, result, SRI_ORDER)
  }
  const final: SriResult =
    input.scripts.length === 0
      ? "sri-not-implemented-but-no-scripts-loaded"
      : (result ??
        (base.externalScripts.length > 0
          ? "sri-implemented-and-external-scripts-loaded-securely"
          : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin"))
  return { ...base, result: final, pass: SRI_PASS.has(final) }
}

/** The Origin a cross-origin read is asked with: a name that can be no one's site (RFC 2606 2). */
export const PROBE_ORIGIN = "https://cors-probe.invalid"

/**
 * The Observatory's CORS test over the response to a request sent with `Origin` (WHATWG Fetch
 * §3.2.5): `*` lets any site read the page without credentials (public); the Origin echoed with
 * `Access-Control-Allow-Credentials: true` lets any site read it as the visitor (universal: fails).
 */
export const judgeCors = (
  headers: Readonly<Record<string, string>>,
  origin: string = PROBE_ORIGIN
): CorsResult => {
  // A header sent twice arrives joined by ", "; the first counts, as the Observatory reads it.
  const first = (name: string) => headers[name]?.split(",")[0]?.trim() ?? null
  const allowOrigin = first("access-control-allow-origin")
  const allowCredentials = (first("access-control-allow-credentials") ?? "").toLowerCase() === "true"
  const base = { origin, allowOrigin, allowCredentials }
  if (allowOrigin === null || allowOrigin === "")
    return {
      ...base,
      allowOrigin: null,
      result: "cross-origin-resource-sharing-not-implemented",
      pass: true,
      issues: []
    }
  if (allowOrigin.toLowerCase() === "*")
    return {
      ...base,
      result: "cross-origin-resource-sharing-implemented-with-public-access",
      pass: true,
      issues: allowCredentials
        ? [
            "Access-Control-Allow-Origin: * with Access-Control-Allow-Credentials: true: browsers refuse credentialed reads of such a response (Fetch 3.2.5), so the credentials header is a misconfiguration"
          ]
        : []
    }
  if (allowOrigin === origin && allowCredentials)
    return {
      ...base,
      result: "cross-origin-resource-sharing-implemented-with-universal-access",
      pass: false,
      issues: [
        `the page echoes any Origin (${origin}) with Access-Control-Allow-Credentials: true: every site can read it as the signed-in visitor`
      ]
    }
  return {
    ...base,
    result: "cross-origin-resource-sharing-implemented-with-restricted-access",
    pass: true,
    issues: []
  }
}

/** The three judgements of a page the headers check read, and the warnings they raise. */
export const judgeContent = (
  gathered: {
    readonly finalUrl: string
    readonly headers: Readonly<Record<string, string>>
    readonly bodyTruncated: boolean
    readonly setCookies?: ReadonlyArray<string>
    readonly scripts?: ReadonlyArray<ScriptElement>
    readonly corsHeaders?: Readonly<Record<string, string>> | null
  },
  domain: string,
  entries: ReadonlyArray<{ readonly name: string; readonly status: string }>
): {
  readonly fields: { cookies?: CookiesResult; sri?: SriJudgement; cors?: CorsResult }
  readonly warnings: ReadonlyArray<string>
} => {
  const fields: { cookies?: CookiesResult; sri?: SriJudgement; cors?: CorsResult } = {}
  const warnings: Array<string> = []
  const finalUrl = URL.canParse(gathered.finalUrl) ? new URL(gathered.finalUrl) : null
  const host = finalUrl?.hostname ?? domain
  const hsts = entries.some((e) => e.name === "Strict-Transport-Security" && e.status === "pass")
  // Scans stored before cookies were read have no `setCookies`: nothing is judged then.
  if (gathered.setCookies !== undefined) {
    const cookies = judgeCookies(gathered.setCookies, host, hsts, finalUrl?.pathname)
    fields.cookies = cookies
    for (const c of cookies.cookies) for (const issue of c.issues) warnings.push(`Cookie ${c.name}: ${issue}`)
  }
  if (gathered.setCookies !== undefined) {
    // The Observatory reads the MIME type strictly: no Content-Type is not HTML.
    const mime = (gathered.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
    const sri = judgeSri({
      html: (mime === "text/html" || mime === "application/xhtml+xml") && gathered.scripts !== undefined,
      scripts: gathered.scripts ?? [],
      host: domain,
      pageHttps: finalUrl?.protocol === "https:",
      bodyTruncated: gathered.bodyTruncated
    })
    fields.sri = sri
    for (const s of sri.externalScripts)
      if (s.integrity === null)
        warnings.push(
          `Script ${s.src} is loaded from another site without an integrity attribute (Subresource Integrity)`
        )
      else if (!s.secureScheme) warnings.push(`Script ${s.src} is loaded from another site without https`)
  }
  if (gathered.corsHeaders) {
    const cors = judgeCors(gathered.corsHeaders)
    fields.cors = cors
    for (const issue of cors.issues) warnings.push(`CORS: ${issue}`)
  }
  return { fields, warnings }
}
