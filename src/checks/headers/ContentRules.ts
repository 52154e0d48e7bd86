/**
 * The rules over what the home page sets and loads besides its headers (docs/scoring.md): cookies,
 * Subresource Integrity and CORS, as the MDN HTTP Observatory judges them. Each is not applicable
 * when the page gives it nothing to judge (no cookie, no script from another site, no CORS header),
 * so a site that sets no cookie neither gains nor loses.
 */
import { fail, notApplicable, partial, pass, spec, unknown, type Verdict } from "../../kernel/Declaration.ts"
import type { HeadersResult } from "./HeadersResult.ts"
import type { CookieResult, SriResult } from "./WebContent.ts"

export const CONTENT_SPECS = {
  cookies: spec({
    id: "security.web.cookies",
    title: "Cookies",
    titleNl: "Cookies",
    category: "security",
    concerns: "web",
    maxPoints: 2,
    level: "recommended",
    rule: "Every cookie Secure and every session cookie HttpOnly (the HTTP Observatory's pass) 2; cookies without Secure on a site whose HSTS keeps them off plain HTTP 1; a cookie without Secure and no HSTS, a session cookie without HttpOnly, an invalid SameSite, or an anti-CSRF cookie without SameSite 0; not applicable without cookies (RFC 6265bis)",
    rank: 110
  }),
  sri: spec({
    id: "security.web.sri",
    title: "Subresource Integrity",
    titleNl: "Subresource Integrity",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "Every script from another site carries an integrity attribute and is loaded over https (W3C SRI); not applicable when the page loads no script from another site",
    rank: 120
  }),
  cors: spec({
    id: "security.web.cors",
    title: "Cross-origin access (CORS)",
    titleNl: "Toegang vanaf andere origins (CORS)",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "The page does not echo any Origin with Access-Control-Allow-Credentials: true (Fetch 3.2.5); not applicable without an Access-Control-Allow-Origin header",
    rank: 130
  })
} as const

/**
 * A scan stored before cookies, scripts and CORS were read has none of the three: they were not
 * checked then, so they neither count nor are called unknown (a fresh scan always has the first two).
 */
const NOT_READ = notApplicable("not read when this scan was made")

/**
 * The Observatory's result codes in words a reader follows: a record's detail is prose, and the
 * code itself stays in the typed result (`cookies.result`, `sri.result`) for whoever compares them.
 */
const COOKIE_WORDS: Record<CookieResult, string> = {
  "cookies-not-found": "no cookie set",
  "cookies-secure-with-httponly-sessions-and-samesite":
    "every cookie Secure, session cookies HttpOnly, SameSite set",
  "cookies-secure-with-httponly-sessions": "every cookie Secure, session cookies HttpOnly",
  "cookies-without-secure-flag-but-protected-by-hsts": "cookies without Secure, protected by HSTS",
  "cookies-without-secure-flag": "cookies without Secure",
  "cookies-session-without-secure-flag-but-protected-by-hsts":
    "session cookies without Secure, protected by HSTS",
  "cookies-samesite-flag-invalid": "a SameSite value that is not valid",
  "cookies-anticsrf-without-samesite-flag": "an anti-CSRF cookie without SameSite",
  "cookies-session-without-httponly-flag": "session cookies without HttpOnly",
  "cookies-session-without-secure-flag": "session cookies without Secure"
}

const SRI_WORDS: Record<SriResult, string> = {
  "sri-implemented-and-all-scripts-loaded-securely": "every script with integrity, over https",
  "sri-implemented-and-external-scripts-loaded-securely":
    "scripts from other sites with integrity, over https",
  "sri-implemented-but-external-scripts-not-loaded-securely":
    "scripts from other sites with integrity, some not over https",
  "sri-not-implemented-but-external-scripts-loaded-securely":
    "scripts from other sites over https, without integrity",
  "sri-not-implemented-and-external-scripts-not-loaded-securely":
    "scripts from other sites without integrity, some not over https",
  "sri-not-implemented-response-not-html": "the page is not HTML",
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin": "every script from this site, over https",
  "sri-not-implemented-but-no-scripts-loaded": "the page loads no script"
}

/** Cookies: the Observatory's verdict in points; its HSTS-protected results keep 1 of 2. */
export const cookiesVerdict = (r: HeadersResult): Verdict => {
  const c = r.cookies
  if (c === undefined) return NOT_READ
  if (c.result === "cookies-not-found") return notApplicable("the home page sets no cookie")
  const names = c.cookies.map((k) => k.name).join(", ")
  if (c.pass) return pass(`${c.cookies.length} cookie(s) (${names}): ${COOKIE_WORDS[c.result]}`)
  const problems = c.cookies.flatMap((k) => k.issues.map((i) => `${k.name}: ${i}`)).join("; ")
  if (
    c.result === "cookies-without-secure-flag-but-protected-by-hsts" ||
    c.result === "cookies-session-without-secure-flag-but-protected-by-hsts"
  )
    return partial(1, `${COOKIE_WORDS[c.result]}: ${problems}`, "cookies_insecure")
  return fail(`${COOKIE_WORDS[c.result]}: ${problems}`, "cookies_insecure")
}

export const sriVerdict = (r: HeadersResult): Verdict => {
  const s = r.sri
  if (s === undefined) return NOT_READ
  if (s.externalScripts.length === 0)
    return notApplicable(`no script from another site (${SRI_WORDS[s.result]})`)
  if (s.pass)
    return pass(`${s.externalScripts.length} script(s) from other sites, each with integrity over https`)
  const bad = s.externalScripts.filter((x) => x.integrity === null || !x.secureScheme).map((x) => x.src)
  return fail(`${SRI_WORDS[s.result]}: ${bad.join(", ")}`, "sri_missing")
}

export const corsVerdict = (r: HeadersResult): Verdict => {
  const c = r.cors
  if (r.cookies === undefined) return NOT_READ
  if (c === undefined) return unknown("the page could not be asked with an Origin")
  if (c.result === "cross-origin-resource-sharing-not-implemented")
    return notApplicable("no Access-Control-Allow-Origin header")
  if (c.pass) return pass(`Access-Control-Allow-Origin: ${c.allowOrigin}`)
  return fail(c.issues.join("; "), "cors_credentials_any_origin")
}
