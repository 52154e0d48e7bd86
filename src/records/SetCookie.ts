/**
 * The Set-Cookie response header as a user agent parses it (RFC 6265bis, draft-ietf-httpbis-
 * rfc6265bis, §5.6 "The Set-Cookie Header Field"), and the cookie name prefixes it enforces
 * (§4.1.3). Pure and total: a header the algorithm ignores is `null`, never an exception.
 */

/** The SameSite attribute as sent: a known value, `invalid` (sent, but not Strict, Lax or None), or null (not sent). */
export type SameSite = "strict" | "lax" | "none" | "invalid"

export interface SetCookie {
  readonly name: string
  readonly value: string
  readonly secure: boolean
  readonly httpOnly: boolean
  readonly sameSite: SameSite | null
  /** The Domain attribute's value, lower case without a leading dot; null when not sent. */
  readonly domain: string | null
  readonly path: string | null
  /** Max-Age in seconds as sent (a number of possibly negative digits); null when absent or invalid. */
  readonly maxAge: number | null
  readonly expires: string | null
  readonly partitioned: boolean
}

/** Control characters other than HTAB abort the algorithm (§5.6 step 1). */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/
/** §5.6: "remove any leading or trailing WSP characters" (SP and HTAB). */
const trimWsp = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/g, "")

/** §5.6 step 5 and §5.6 "attribute-value longer than 1024 octets is ignored". */
const MAX_NAME_VALUE = 4096
const MAX_ATTRIBUTE_VALUE = 1024

/**
 * Parses one set-cookie-string (§5.6). Returns null where a user agent ignores the whole header:
 * a control character, an empty name and value, or a name and value longer than 4096 octets.
 */
export const parseSetCookie = (header: string): SetCookie | null => {
  if (CONTROL.test(header)) return null
  const semi = header.indexOf(";")
  const pair = semi === -1 ? header : header.slice(0, semi)
  const attributes = semi === -1 ? "" : header.slice(semi + 1)
  const eq = pair.indexOf("=")
  // §5.6 step 3: a pair without "=" is a value with an empty name.
  const name = eq === -1 ? "" : trimWsp(pair.slice(0, eq))
  const value = trimWsp(eq === -1 ? pair : pair.slice(eq + 1))
  if (name.length + value.length > MAX_NAME_VALUE) return null
  if (name === "" && value === "") return null
  let secure = false
  let httpOnly = false
  let partitioned = false
  let sameSite: SameSite | null = null
  let domain: string | null = null
  let path: string | null = null
  let maxAge: number | null = null
  let expires: string | null = null
  for (const av of attributes.split(";")) {
    const at = av.indexOf("=")
    const key = trimWsp(at === -1 ? av : av.slice(0, at)).toLowerCase()
    const val = at === -1 ? "" : trimWsp(av.slice(at + 1))
    if (val.length > MAX_ATTRIBUTE_VALUE) continue
    switch (key) {
      case "secure":
        secure = true
        break
      case "httponly":
        httpOnly = true
        break
      case "partitioned":
        partitioned = true
        break
      case "samesite": {
        const v = val.toLowerCase()
        // §5.6.7: an unknown value enforces as the default ("Lax-by-default" in browsers).
        sameSite = v === "strict" || v === "lax" || v === "none" ? v : "invalid"
        break
      }
      case "domain":
        // §5.6.3: an empty value is ignored; a leading dot is dropped.
        if (val !== "") domain = val.replace(/^\./, "").toLowerCase()
        break
      case "path":
        // §5.6.4: a value not starting with "/" means the default path.
        path = val.startsWith("/") ? val : null
        break
      case "max-age":
        // §5.6.2: digits, optionally after a "-"; anything else is ignored.
        if (/^-?\d+$/.test(val)) maxAge = Number(val)
        break
      case "expires":
        if (val !== "") expires = val
        break
    }
  }
  return { name, value, secure, httpOnly, sameSite, domain, path, maxAge, expires, partitioned }
}

/**
 * Whether a user agent stores the cookie given its name prefix (§4.1.3, checked case-insensitively
 * per §5.7): `__Secure-` needs Secure; `__Host-` needs Secure, no Domain and Path "/". The reason
 * when it does not, or null.
 */
export const prefixViolation = (cookie: SetCookie): string | null => {
  const lower = cookie.name.toLowerCase()
  if (lower.startsWith("__host-")) {
    if (!cookie.secure) return "a __Host- cookie without Secure is rejected by browsers"
    if (cookie.domain !== null) return "a __Host- cookie with a Domain attribute is rejected by browsers"
    if (cookie.path !== "/") return "a __Host- cookie without Path=/ is rejected by browsers"
  } else if (lower.startsWith("__secure-") && !cookie.secure)
    return "a __Secure- cookie without Secure is rejected by browsers"
  return null
}

/** RFC 6265bis 5.1.3: the Domain attribute must domain-match the host, or the cookie is ignored (5.7 step 10). */
const domainMatches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`)

/** Why a user agent does not store a cookie `host` sets (its name prefix, or its Domain), or null. */
export const storageRefusal = (cookie: SetCookie, host: string): string | null =>
  prefixViolation(cookie) ??
  (cookie.domain !== null && !domainMatches(host, cookie.domain)
    ? `Domain=${cookie.domain} does not cover ${host}: browsers ignore the cookie`
    : null)

/** RFC 6265 5.1.4: the default path of a cookie set by a response to a request for `path`. */
export const defaultPath = (path: string): string => {
  const last = path.lastIndexOf("/")
  return !path.startsWith("/") || last === 0 ? "/" : path.slice(0, last)
}

/**
 * Which cookies of one response a later cookie of the same response replaces in the store: the
 * same name, Domain (or none: host-only) and path (RFC 6265 5.3 step 11; RFC 6265bis 5.7 adds the
 * host-only flag). Only a cookie the user agent stores (`stored[j]`) replaces another.
 */
export const replacedLater = (
  cookies: ReadonlyArray<SetCookie>,
  stored: ReadonlyArray<boolean>,
  requestPath: string
): Array<boolean> => {
  const key = (c: SetCookie) => [c.name, c.domain ?? "", c.path ?? defaultPath(requestPath)].join("\0")
  return cookies.map((c, i) => cookies.some((later, j) => j > i && stored[j] && key(later) === key(c)))
}

/** A set-cookie-string that parses back to `cookie` (for tests, and the generator's examples). */
export const serializeSetCookie = (cookie: SetCookie): string => {
  const parts = [cookie.name === "" ? cookie.value : `${cookie.name}=${cookie.value}`]
  if (cookie.domain !== null) parts.push(`Domain=${cookie.domain}`)
  if (cookie.path !== null) parts.push(`Path=${cookie.path}`)
  if (cookie.maxAge !== null) parts.push(`Max-Age=${cookie.maxAge}`)
  if (cookie.expires !== null) parts.push(`Expires=${cookie.expires}`)
  if (cookie.secure) parts.push("Secure")
  if (cookie.httpOnly) parts.push("HttpOnly")
  if (cookie.partitioned) parts.push("Partitioned")
  if (cookie.sameSite !== null)
    parts.push(
      `SameSite=${cookie.sameSite === "invalid" ? "Sometimes" : cookie.sameSite[0]!.toUpperCase() + cookie.sameSite.slice(1)}`
    )
  return parts.join("; ")
}
