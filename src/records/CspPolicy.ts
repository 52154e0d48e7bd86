/**
 * Content-Security-Policy parsing and source matching (W3C CSP Level 3), pure.
 * Used to judge policies, and to prove a synthesised policy allows what the crawler saw.
 */

export interface Directive {
  readonly name: string
  readonly values: ReadonlyArray<string>
}

/** CSP3 §2.2.1 "parse a serialized CSP": split on ";", first token is the name, first wins. */
export const parsePolicy = (text: string): ReadonlyArray<Directive> => {
  const seen = new Set<string>()
  const out: Array<Directive> = []
  for (const part of text.split(";")) {
    const tokens = part
      .trim()
      .split(/[\t\n\f\r ]+/)
      .filter((t) => t !== "")
    const name = tokens[0]?.toLowerCase()
    if (!name || !/^[a-z0-9-]+$/.test(name) || seen.has(name)) continue
    seen.add(name)
    out.push({ name, values: tokens.slice(1) })
  }
  return out
}

/** A header may carry several policies separated by commas (CSP3 §3.1); each is enforced. */
export const parsePolicies = (header: string): ReadonlyArray<ReadonlyArray<Directive>> =>
  header
    .split(",")
    .map((p) => parsePolicy(p))
    .filter((p) => p.length > 0)

export const serializePolicy = (policy: ReadonlyArray<Directive>): string =>
  policy.map((d) => [d.name, ...d.values].join(" ")).join("; ")

export const directive = (policy: ReadonlyArray<Directive>, name: string): Directive | undefined =>
  policy.find((d) => d.name === name)

/** CSP3 §6.8.3 fallback lists: which directive governs a fetch of this kind. */
const FALLBACKS: Readonly<Record<string, ReadonlyArray<string>>> = {
  "script-src-elem": ["script-src-elem", "script-src", "default-src"],
  "script-src-attr": ["script-src-attr", "script-src", "default-src"],
  "style-src-elem": ["style-src-elem", "style-src", "default-src"],
  "style-src-attr": ["style-src-attr", "style-src", "default-src"],
  "script-src": ["script-src", "default-src"],
  "style-src": ["style-src", "default-src"],
  "img-src": ["img-src", "default-src"],
  "font-src": ["font-src", "default-src"],
  "media-src": ["media-src", "default-src"],
  "connect-src": ["connect-src", "default-src"],
  "object-src": ["object-src", "default-src"],
  "frame-src": ["frame-src", "child-src", "default-src"],
  "worker-src": ["worker-src", "child-src", "script-src", "default-src"],
  "manifest-src": ["manifest-src", "default-src"],
  "form-action": ["form-action"],
  "frame-ancestors": ["frame-ancestors"],
  "base-uri": ["base-uri"]
}

/** The directive that governs `kind`, or undefined when the policy does not restrict it. */
export const effectiveDirective = (policy: ReadonlyArray<Directive>, kind: string): Directive | undefined => {
  for (const name of FALLBACKS[kind] ?? [kind, "default-src"]) {
    const d = directive(policy, name)
    if (d) return d
  }
  return undefined
}

const defaultPort = (scheme: string) =>
  scheme === "https:" || scheme === "wss:" ? "443" : scheme === "http:" || scheme === "ws:" ? "80" : ""

/**
 * CSP3 §6.7.2.5 "Does url match expression in origin with redirect count": host-source and
 * scheme-source matching, including the http->https and ws->wss upgrades and `'self'`.
 */
export const matchesSource = (expression: string, url: URL, self: URL): boolean => {
  const e = expression.toLowerCase()
  if (e === "*") return !["data:", "blob:", "filesystem:"].includes(url.protocol)
  if (e === "'self'") {
    if (url.origin === self.origin) return true
    // upgrades of the same host: http(s)->https, ws->wss on default ports
    return (
      url.hostname === self.hostname &&
      ((self.protocol === "http:" &&
        (url.protocol === "https:" || url.protocol === "wss:" || url.protocol === "ws:")) ||
        (self.protocol === "https:" && url.protocol === "wss:")) &&
      (url.port === self.port || (url.port === "" && self.port === ""))
    )
  }
  const scheme = /^([a-z][a-z0-9+.-]*):$/.exec(e)
  if (scheme) return schemeMatches(scheme[1]! + ":", url.protocol)
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|\*\.[^/:]+|[^/:*]+)(?::(\*|\d+))?(\/[^?#]*)?$/.exec(e)
  if (!m) return false
  const [, srcScheme, host = "", port, path] = m
  if (srcScheme !== undefined) {
    if (!schemeMatches(srcScheme + ":", url.protocol)) return false
  } else if (!schemeMatches(self.protocol, url.protocol)) return false
  const h = url.hostname.toLowerCase()
  if (host === "*") {
    // "*" host matches any
  } else if (host.startsWith("*.")) {
    if (!h.endsWith(host.slice(1))) return false
  } else if (h !== host) return false
  // CSP3 §6.7.2.8 port-part match: no port means the scheme's default (URL drops default ports).
  const urlPort = url.port === "" ? defaultPort(url.protocol) : url.port
  if (port === undefined) {
    if (url.port !== "") return false
  } else if (port !== "*" && port !== urlPort && !(port === "80" && urlPort === "443")) return false
  if (path !== undefined && path !== "/" && path !== "") {
    const p = decodeURIComponent(url.pathname)
    if (path.endsWith("/") ? !p.startsWith(path) : p !== path) return false
  }
  return true
}

/** CSP3 scheme-part match: exact, or the secure upgrade of the expression's scheme. */
const schemeMatches = (expr: string, actual: string) =>
  expr === actual ||
  (expr === "http:" && actual === "https:") ||
  (expr === "ws:" && (actual === "wss:" || actual === "http:" || actual === "https:")) ||
  (expr === "wss:" && actual === "https:") ||
  (expr === "http:" && actual === "ws:") ||
  (expr === "https:" && actual === "wss:")

/** Does `directive` (the effective one) allow loading `url`? No directive means allowed. */
export const allowsUrl = (d: Directive | undefined, url: URL, self: URL): boolean => {
  if (!d) return true
  if (d.values.some((v) => v.toLowerCase() === "'none'") && d.values.length === 1) return false
  return d.values.some((v) => matchesSource(v, url, self))
}

/** Does the directive allow an inline script/style with this sha256 (base64) digest? */
export const allowsInline = (d: Directive | undefined, sha256: string): boolean => {
  if (!d) return true
  const values = d.values.map((v) => v.toLowerCase())
  const hasHashOrNonce = d.values.some((v) => /^'(sha256|sha384|sha512|nonce)-/i.test(v))
  if (d.values.includes(`'sha256-${sha256}'`)) return true
  // CSP3 §6.7.3.3: 'unsafe-inline' is ignored when a hash or nonce is present.
  return values.includes("'unsafe-inline'") && !hasHashOrNonce
}

/** Inline event handler attributes need 'unsafe-hashes' + hash, or 'unsafe-inline' (CSP3 §6.7.3.3). */
export const allowsEventHandler = (d: Directive | undefined, sha256: string): boolean => {
  if (!d) return true
  const values = d.values.map((v) => v.toLowerCase())
  if (values.includes("'unsafe-hashes'") && d.values.includes(`'sha256-${sha256}'`)) return true
  const hasHashOrNonce = d.values.some((v) => /^'(sha256|sha384|sha512|nonce)-/i.test(v))
  return values.includes("'unsafe-inline'") && !hasHashOrNonce
}
