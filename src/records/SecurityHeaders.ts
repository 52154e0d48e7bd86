/**
 * The security-header generator (pure, no network): a preset and/or a per-header config become an
 * ordered header list, ready-to-paste snippets for nginx, Apache, Caddy, Cloudflare (a Transform
 * Rule), a static host's `_headers` file and raw header lines, plus warnings about what the chosen
 * values can break. Used by `POST /security-headers/generate` and for `recommended`/`outputs` of the
 * security-headers analysis.
 */
import { Either } from "effect"
import { GenerateError } from "./GenerateError.ts"
import {
  CONFIG_KEYS,
  type ConfigKey,
  type CspConfig,
  type GenerateRequest,
  type GenerateResult,
  type Header,
  type HeadersConfig,
  type HstsConfig,
  type PermissionsConfig,
  type Preset
} from "./SecurityHeadersConfig.ts"
import { renderOutputs } from "./SecurityHeadersOutputs.ts"

export * from "./SecurityHeadersConfig.ts"

const RECOMMENDED_CSP =
  "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'; upgrade-insecure-requests"
const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; upgrade-insecure-requests"
const RECOMMENDED_PERMISSIONS =
  "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()"
const STRICT_PERMISSIONS =
  "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), fullscreen=(self), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), picture-in-picture=(), publickey-credentials-get=(self), screen-wake-lock=(), sync-xhr=(), usb=(), xr-spatial-tracking=(), browsing-topics=()"

/** The presets as configs; the generator treats them exactly like user configs. */
export const PRESETS: Readonly<Record<Preset, HeadersConfig>> = {
  recommended: {
    hsts: { maxAge: 31536000, includeSubDomains: true, preload: false },
    csp: RECOMMENDED_CSP,
    frameOptions: "SAMEORIGIN",
    contentTypeOptions: true,
    referrerPolicy: "strict-origin-when-cross-origin",
    permissionsPolicy: RECOMMENDED_PERMISSIONS,
    coop: "same-origin",
    coep: false,
    corp: "same-site"
  },
  strict: {
    hsts: { maxAge: 63072000, includeSubDomains: true, preload: true },
    csp: STRICT_CSP,
    frameOptions: "DENY",
    contentTypeOptions: true,
    referrerPolicy: "no-referrer",
    permissionsPolicy: STRICT_PERMISSIONS,
    coop: "same-origin",
    coep: "require-corp",
    corp: "same-origin"
  },
  "report-only": {
    hsts: { maxAge: 31536000, includeSubDomains: true, preload: false },
    csp: { policy: RECOMMENDED_CSP, reportOnly: true },
    frameOptions: "SAMEORIGIN",
    contentTypeOptions: true,
    referrerPolicy: "strict-origin-when-cross-origin",
    permissionsPolicy: RECOMMENDED_PERMISSIONS,
    coop: "same-origin",
    coep: "report-only:require-corp",
    corp: "same-site"
  }
}

/** The referrer policy tokens of W3C Referrer Policy §3 (header values and `<meta name="referrer">`). */
export const REFERRER_TOKENS: ReadonlySet<string> = new Set([
  "no-referrer",
  "no-referrer-when-downgrade",
  "same-origin",
  "origin",
  "strict-origin",
  "origin-when-cross-origin",
  "strict-origin-when-cross-origin",
  "unsafe-url"
])
const COOP = new Set(["same-origin", "same-origin-allow-popups", "unsafe-none", "noopener-allow-popups"])
const COEP = new Set(["require-corp", "credentialless", "unsafe-none"])
const CORP = new Set(["same-origin", "same-site", "cross-origin"])

type Resolved = { readonly header: Header | null; readonly warnings: ReadonlyArray<string> }
type Failure = { readonly error: string }
const off: Resolved = { header: null, warnings: [] }
const fail = (error: string): Failure => ({ error })
const isFailure = (r: Resolved | Failure): r is Failure => "error" in r

/**
 * Header values go into quoted strings of server configs: no control characters or line breaks
 * (header injection), no backslashes (each server unescapes them differently).
 */
const safeValue = (key: string, value: string): Failure | undefined =>
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\uffff\\]/.test(value) || value.trim() === ""
    ? fail(`${key}: header value must be non-empty printable ASCII without backslashes`)
    : undefined

const hsts = (v: typeof HstsConfig.Type, fallback: typeof HstsConfig.Type): Resolved | Failure => {
  if (v === false) return off
  const conf = v === true ? fallback : v
  if (typeof conf === "boolean") return fail("hsts: invalid")
  let maxAge: number
  let sub: boolean
  let preload: boolean
  if (typeof conf === "string") {
    const m = /max-age\s*=\s*"?(\d+)"?/i.exec(conf)
    if (!m) return fail("hsts: a string value must contain max-age=<seconds> (RFC 6797 §6.1.1)")
    maxAge = Number(m[1])
    sub = /(^|;)\s*includesubdomains\s*(;|$)/i.test(conf)
    preload = /(^|;)\s*preload\s*(;|$)/i.test(conf)
  } else {
    maxAge = conf.maxAge ?? 31536000
    sub = conf.includeSubDomains ?? true
    preload = conf.preload ?? false
  }
  if (!Number.isInteger(maxAge) || maxAge < 0) return fail("hsts: maxAge must be a non-negative integer")
  const warnings: Array<string> = []
  if (maxAge === 0)
    warnings.push("HSTS max-age=0 tells browsers to forget the HSTS policy (RFC 6797 §6.1.1).")
  else if (maxAge < 15768000)
    warnings.push(
      `HSTS max-age=${maxAge} is under six months; raise it to at least 31536000 once HTTPS works everywhere.`
    )
  if (sub)
    warnings.push(
      "HSTS includeSubDomains forces HTTPS on every subdomain: make sure all of them (intranet, mail, legacy hosts) serve valid HTTPS first."
    )
  if (preload) {
    warnings.push(
      "HSTS preload: submitting to hstspreload.org hard-codes HTTPS-only for the domain and all subdomains into browsers; removal takes months. Only submit when every subdomain serves HTTPS permanently."
    )
    if (!sub || maxAge < 31536000)
      warnings.push(
        "HSTS preload requires includeSubDomains and max-age of at least 31536000 to be accepted."
      )
  }
  const value = [
    `max-age=${maxAge}`,
    ...(sub ? ["includeSubDomains"] : []),
    ...(preload ? ["preload"] : [])
  ].join("; ")
  return { header: { name: "Strict-Transport-Security", value }, warnings }
}

const csp = (v: typeof CspConfig.Type, fallback: typeof CspConfig.Type): Resolved | Failure => {
  if (v === false) return off
  const conf = v === true ? fallback : v
  if (typeof conf === "boolean") return fail("csp: invalid")
  let policy: string
  let reportOnly = false
  if (typeof conf === "string") policy = conf
  else {
    reportOnly = conf.reportOnly ?? false
    const parts: Array<string> = []
    if (conf.policy !== undefined) parts.push(conf.policy)
    for (const [name, value] of Object.entries(conf.directives ?? {})) {
      if (!/^[a-zA-Z][a-zA-Z0-9-]*$/.test(name)) return fail(`csp: invalid directive name '${name}'`)
      const sources = typeof value === "string" ? value : value.join(" ")
      if (/[;,]/.test(sources)) return fail(`csp: sources of ${name} must not contain ';' or ','`)
      parts.push(sources.trim() === "" ? name : `${name} ${sources.trim()}`)
    }
    if (conf.reportUri !== undefined) parts.push(`report-uri ${conf.reportUri}`)
    if (conf.reportTo !== undefined) parts.push(`report-to ${conf.reportTo}`)
    policy = parts.map((p) => p.trim().replace(/;+$/, "")).join("; ")
  }
  policy = policy.trim().replace(/\s*;\s*$/, "")
  const bad = safeValue("csp", policy)
  if (bad) return bad
  const warnings: Array<string> = []
  const directives = new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0]!.toLowerCase(), d.slice(1)] as const)
  )
  const sources = [...directives.values()].flat()
  if (sources.includes("'unsafe-inline'"))
    warnings.push("CSP allows 'unsafe-inline': injected inline scripts run. Prefer nonces or sha256 hashes.")
  if (sources.includes("'unsafe-eval'"))
    warnings.push("CSP allows 'unsafe-eval': string-to-code sinks stay open.")
  if (!directives.has("object-src") && !directives.get("default-src")?.includes("'none'"))
    warnings.push("CSP has no object-src 'none': plugin content can bypass script restrictions.")
  if (!directives.has("base-uri"))
    warnings.push("CSP has no base-uri: an injected <base> tag can redirect relative scripts.")
  if (reportOnly) {
    warnings.push(
      "CSP is Report-Only: violations are reported, nothing is blocked. Switch to enforcing once reports are clean."
    )
    if (!directives.has("report-uri") && !directives.has("report-to"))
      warnings.push(
        "CSP Report-Only without report-uri or report-to: violations are only visible in browser consoles."
      )
  }
  return {
    header: {
      name: reportOnly ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy",
      value: policy
    },
    warnings
  }
}

const token = (
  key: string,
  name: string,
  v: boolean | string,
  fallback: boolean | string,
  allowed: (s: string) => string | undefined
): Resolved | Failure => {
  if (v === false) return off
  const raw = v === true ? fallback : v
  if (typeof raw !== "string") return fail(`${key}: invalid`)
  const reportOnly = raw.startsWith("report-only:")
  const value = allowed(reportOnly ? raw.slice("report-only:".length) : raw)
  if (value === undefined) return fail(`${key}: '${raw}' is not a valid ${name} value`)
  return { header: { name: reportOnly ? `${name}-Report-Only` : name, value }, warnings: [] }
}

const permissions = (
  v: typeof PermissionsConfig.Type,
  fallback: typeof PermissionsConfig.Type
): Resolved | Failure => {
  if (v === false) return off
  const conf = v === true ? fallback : v
  if (typeof conf === "boolean") return fail("permissionsPolicy: invalid")
  let value: string
  if (typeof conf === "string") value = conf.trim()
  else {
    const items: Array<string> = []
    for (const [feature, allow] of Object.entries(conf)) {
      if (!/^[a-z][a-z0-9-]*$/.test(feature)) return fail(`permissionsPolicy: invalid feature '${feature}'`)
      if (allow.includes("*")) items.push(`${feature}=*`)
      else {
        const list = allow.map((a) => (a === "self" || a === "src" ? a : `"${a.replace(/"/g, "")}"`))
        items.push(`${feature}=(${list.join(" ")})`)
      }
    }
    value = items.join(", ")
  }
  const bad = safeValue("permissionsPolicy", value)
  if (bad) return bad
  return { header: { name: "Permissions-Policy", value }, warnings: [] }
}

const one = (key: ConfigKey, conf: HeadersConfig, base: HeadersConfig): Resolved | Failure => {
  const rec = PRESETS.recommended
  switch (key) {
    case "hsts":
      return conf.hsts === undefined ? off : hsts(conf.hsts, base.hsts ?? rec.hsts!)
    case "csp":
      return conf.csp === undefined ? off : csp(conf.csp, base.csp ?? rec.csp!)
    case "permissionsPolicy":
      return conf.permissionsPolicy === undefined
        ? off
        : permissions(conf.permissionsPolicy, base.permissionsPolicy ?? rec.permissionsPolicy!)
    case "frameOptions":
      return conf.frameOptions === undefined
        ? off
        : token(key, "X-Frame-Options", conf.frameOptions, base.frameOptions ?? rec.frameOptions!, (s) => {
            const u = s.trim().toUpperCase()
            return u === "DENY" || u === "SAMEORIGIN" ? u : undefined
          })
    case "contentTypeOptions":
      return conf.contentTypeOptions === undefined
        ? off
        : token(key, "X-Content-Type-Options", conf.contentTypeOptions, "nosniff", (s) =>
            s.trim().toLowerCase() === "nosniff" ? "nosniff" : undefined
          )
    case "referrerPolicy":
      return conf.referrerPolicy === undefined
        ? off
        : token(
            key,
            "Referrer-Policy",
            conf.referrerPolicy,
            base.referrerPolicy ?? rec.referrerPolicy!,
            (s) => {
              const list = s.split(",").map((t) => t.trim().toLowerCase())
              return list.every((t) => REFERRER_TOKENS.has(t)) ? list.join(", ") : undefined
            }
          )
    case "coop":
      return conf.coop === undefined
        ? off
        : token(key, "Cross-Origin-Opener-Policy", conf.coop, base.coop ?? rec.coop!, (s) =>
            COOP.has(s.trim()) ? s.trim() : undefined
          )
    case "coep":
      return conf.coep === undefined
        ? off
        : token(key, "Cross-Origin-Embedder-Policy", conf.coep, base.coep || "require-corp", (s) =>
            COEP.has(s.trim()) ? s.trim() : undefined
          )
    case "corp":
      return conf.corp === undefined
        ? off
        : token(key, "Cross-Origin-Resource-Policy", conf.corp, base.corp ?? rec.corp!, (s) =>
            CORP.has(s.trim()) ? s.trim() : undefined
          )
  }
}

/** Warnings that depend on several headers at once or on the header's effect on the site. */
const crossWarnings = (headers: ReadonlyArray<Header>): Array<string> => {
  const get = (name: string) => headers.find((h) => h.name === name)?.value
  const out: Array<string> = []
  const coep = get("Cross-Origin-Embedder-Policy")
  if (coep === "require-corp" || coep === "credentialless")
    out.push(
      `COEP ${coep} blocks third-party embeds (images, scripts, iframes, video players, ads) that do not send Cross-Origin-Resource-Policy or CORS headers. Try Cross-Origin-Embedder-Policy-Report-Only first.`
    )
  if (get("Cross-Origin-Opener-Policy") === "same-origin")
    out.push(
      "COOP same-origin severs window.opener for cross-origin popups: OAuth or payment flows that use popups need same-origin-allow-popups."
    )
  if (get("Cross-Origin-Resource-Policy") === "same-origin")
    out.push(
      "CORP same-origin stops other sites (including your own subdomains and CDNs) from embedding your resources."
    )
  const referrer = get("Referrer-Policy")
  if (referrer !== undefined && /unsafe-url|no-referrer-when-downgrade/.test(referrer))
    out.push(`Referrer-Policy ${referrer} leaks full URLs (paths, query strings) to other sites.`)
  const cspValue = get("Content-Security-Policy")
  if (get("X-Frame-Options") !== undefined && cspValue !== undefined && /frame-ancestors/i.test(cspValue))
    out.push(
      "Both X-Frame-Options and CSP frame-ancestors are set: browsers obey frame-ancestors; keep them consistent."
    )
  if (get("X-Frame-Options") === undefined && (cspValue === undefined || !/frame-ancestors/i.test(cspValue)))
    out.push("Neither X-Frame-Options nor CSP frame-ancestors is set: pages can be framed (clickjacking).")
  if (headers.some((h) => h.value.includes("$")))
    out.push(
      "A header value contains '$': nginx treats it as a variable; escape it before using the nginx snippet."
    )
  return out
}

/**
 * Build the header set. The preset (if any) is the base, `config` keys replace the preset's
 * (config wins); with only a config, exactly the configured headers are produced and `true`
 * selects the recommended value for that header.
 */
export const generate = (request: GenerateRequest): Either.Either<GenerateResult, GenerateError> => {
  if (
    request.preset === undefined &&
    (request.config === undefined || Object.keys(request.config).length === 0)
  )
    return Either.left(new GenerateError({ message: "either preset or config is required" }))
  const base = request.preset === undefined ? {} : PRESETS[request.preset]
  const merged: HeadersConfig = { ...base, ...(request.config ?? {}) }
  const headers: Array<Header> = []
  const warnings: Array<string> = []
  const config: Record<ConfigKey, string | null> = {
    hsts: null,
    csp: null,
    frameOptions: null,
    contentTypeOptions: null,
    referrerPolicy: null,
    permissionsPolicy: null,
    coop: null,
    coep: null,
    corp: null
  }
  for (const key of CONFIG_KEYS) {
    const r = one(key, merged, base)
    if (isFailure(r)) return Either.left(new GenerateError({ field: key, message: r.error }))
    if (r.header) {
      const bad = safeValue(key, r.header.value)
      if (bad) return Either.left(new GenerateError({ field: key, message: bad.error }))
      headers.push(r.header)
      config[key] = r.header.value
    }
    warnings.push(...r.warnings)
  }
  if (headers.length === 0) warnings.push("Every header is switched off: nothing to configure.")
  warnings.push(...crossWarnings(headers))
  return Either.right({
    preset: request.preset ?? null,
    headers,
    outputs: renderOutputs(headers),
    warnings,
    config
  })
}
