/**
 * Security headers of https://<domain>/ (`GET /security-headers/analyze`): gather (the HTTPS fetch
 * of the site, and an http:// probe when there is no HTTPS, both through `Facts.fetch`) and a
 * pure, total `analyse`. "Unknown is not missing": when the fetch times out or DNS fails, every
 * header is `unknown` and nothing is reported missing.
 */
import { Effect, Either, Schema } from "effect"
import { ConfigValues, generate, type HeadersConfig } from "../../generate/SecurityHeaders.ts"
import { HeaderOutputs } from "../../generate/SecurityHeadersOutputs.ts"
import type { WebError, WebErrorReason } from "../../net/Web.ts"
import { directive, parsePolicies } from "../../records/CspPolicy.ts"
import { DateTime, Strings } from "../../records/Schemas.ts"
import { define } from "../Check.ts"
import { Facts } from "../Facts.ts"

export const INSPECTED = [
  "Strict-Transport-Security",
  "Content-Security-Policy",
  "X-Frame-Options",
  "X-Content-Type-Options",
  "Referrer-Policy",
  "Permissions-Policy"
] as const
export type InspectedHeader = (typeof INSPECTED)[number]

/** What `gather` saw: a response, or the reason there is none. */
export type HeadersGathered =
  | {
      readonly kind: "response"
      readonly status: number
      readonly headers: Readonly<Record<string, string>>
      readonly finalUrl: string
      readonly redirects: number
      /** Set when the certificate is not trusted; the headers were read anyway. */
      readonly tlsError: string | null
    }
  | {
      readonly kind: "failed"
      readonly reason: WebErrorReason
      readonly message: string
      /** Whether http://<domain>/ answered (probed only when HTTPS is absent). */
      readonly plainHttp?: boolean
    }

export const HeaderEntry = Schema.Struct({
  /** One of `INSPECTED` (served as a string). */
  name: Schema.String,
  present: Schema.Boolean,
  value: Schema.NullOr(Schema.String),
  /** Spec: pass (present and effective), missing (absent or ignored by browsers), unknown. */
  status: Schema.Literal("pass", "missing", "unknown"),
  /** Quality beyond presence: strong values, weak ones, and present-but-ignored ones. */
  rating: Schema.Literal("good", "weak", "ineffective", "absent", "unknown"),
  issues: Strings
})
export type HeaderEntry = typeof HeaderEntry.Type
/** An entry as `analyse` builds it: for one of the inspected headers. */
type Entry = HeaderEntry & { readonly name: InspectedHeader }

export const HeadersResult = Schema.Struct({
  domain: Schema.String,
  scannedAt: DateTime,
  url: Schema.String,
  finalUrl: Schema.NullOr(Schema.String),
  statusCode: Schema.NullOr(Schema.Int),
  httpsAvailable: Schema.Boolean,
  headerFetchTimedOut: Schema.Boolean,
  note: Schema.optional(Schema.String),
  /** Why the page could not be read, for failures other than a timeout. */
  fetchError: Schema.optional(Schema.String),
  current: Schema.Array(HeaderEntry),
  missing: Strings,
  recommended: ConfigValues,
  outputs: HeaderOutputs,
  warnings: Strings
})
export type HeadersResult = typeof HeadersResult.Type

type Judgement = Pick<HeaderEntry, "status" | "rating" | "issues">
const good: Judgement = { status: "pass", rating: "good", issues: [] }
const weak = (...issues: Array<string>): Judgement => ({ status: "pass", rating: "weak", issues })
const ineffective = (...issues: Array<string>): Judgement => ({
  status: "missing",
  rating: "ineffective",
  issues
})

/** RFC 6797 §6.1: max-age is required; a year and includeSubDomains is the usual bar. */
export const judgeHsts = (value: string): Judgement => {
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value)
  if (!m)
    return ineffective("max-age is missing or malformed, so browsers ignore the header (RFC 6797 §6.1.1)")
  const maxAge = Number(m[1])
  if (maxAge === 0) return ineffective("max-age=0 removes the HSTS policy")
  const issues: Array<string> = []
  if (maxAge < 31536000) issues.push(`max-age=${maxAge} is below one year (31536000)`)
  if (!/(?:^|;)\s*includesubdomains\s*(?:;|$)/i.test(value)) issues.push("includeSubDomains is not set")
  return issues.length === 0 ? good : weak(...issues)
}

/** Enforcing CSP: weak when it allows inline script, eval, or any host for scripts. */
export const judgeCsp = (value: string): Judgement => {
  const policies = parsePolicies(value)
  if (policies.length === 0) return ineffective("the policy has no directives")
  const issues: Array<string> = []
  for (const policy of policies) {
    const script = directive(policy, "script-src") ?? directive(policy, "default-src")
    const values = script?.values.map((v) => v.toLowerCase()) ?? []
    const strictDynamicOrHash = values.some((v) => /^'(nonce|sha(256|384|512))-/.test(v))
    if (!script) issues.push("no script-src or default-src: scripts are not restricted")
    else {
      if (values.includes("'unsafe-inline'") && !strictDynamicOrHash)
        issues.push("script-src allows 'unsafe-inline'")
      if (values.includes("'unsafe-eval'")) issues.push("script-src allows 'unsafe-eval'")
      if (values.some((v) => v === "*" || v === "https:" || v === "http:" || v === "data:"))
        issues.push("script-src allows any host (wildcard or scheme source)")
    }
    if (
      !directive(policy, "object-src") &&
      !(directive(policy, "default-src")?.values ?? []).includes("'none'")
    )
      issues.push("object-src is not restricted to 'none'")
    if (!directive(policy, "base-uri")) issues.push("base-uri is not set")
  }
  return issues.length === 0 ? good : weak(...issues)
}

/** RFC 7034: DENY or SAMEORIGIN; ALLOW-FROM is obsolete and ignored by current browsers. */
export const judgeFrameOptions = (value: string): Judgement => {
  const v = value.trim().toUpperCase()
  if (v === "DENY" || v === "SAMEORIGIN") return good
  return ineffective(`'${value}' is not DENY or SAMEORIGIN; browsers ignore it`)
}

export const judgeNosniff = (value: string): Judgement =>
  value.trim().toLowerCase() === "nosniff" ? good : ineffective(`'${value}' is not 'nosniff'`)

const REFERRER_SAFE = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
  "origin",
  "origin-when-cross-origin"
])
const REFERRER_UNSAFE = new Set(["unsafe-url", "no-referrer-when-downgrade"])

/** W3C Referrer Policy §8.1: the last recognised token of the list wins. */
export const judgeReferrer = (value: string): Judgement => {
  const tokens = value
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => REFERRER_SAFE.has(t) || REFERRER_UNSAFE.has(t))
  const last = tokens[tokens.length - 1]
  if (last === undefined)
    return ineffective(`'${value}' contains no known policy; browsers use their default`)
  if (REFERRER_UNSAFE.has(last)) return weak(`'${last}' sends full URLs to other sites`)
  if (last === "origin" || last === "origin-when-cross-origin")
    return weak(`'${last}' sends the origin over plain HTTP too`)
  return good
}

export const judgePermissions = (value: string): Judgement => {
  const items = value
    .split(",")
    .map((i) => i.trim())
    .filter((i) => i !== "")
  if (items.length === 0 || !items.every((i) => /^[a-z0-9-]+=(\*|\(.*\)|self|[^,]*)$/i.test(i)))
    return ineffective("not a valid Structured Fields dictionary (features like camera=())")
  return good
}

const JUDGES: Readonly<Record<InspectedHeader, (value: string) => Judgement>> = {
  "Strict-Transport-Security": judgeHsts,
  "Content-Security-Policy": judgeCsp,
  "X-Frame-Options": judgeFrameOptions,
  "X-Content-Type-Options": judgeNosniff,
  "Referrer-Policy": judgeReferrer,
  "Permissions-Policy": judgePermissions
}

const CONFIG_KEY: Partial<Record<InspectedHeader, keyof HeadersConfig>> = {
  "Strict-Transport-Security": "hsts",
  "Content-Security-Policy": "csp",
  "X-Frame-Options": "frameOptions",
  "Referrer-Policy": "referrerPolicy",
  "Permissions-Policy": "permissionsPolicy"
}

/** The recommended preset, keeping the site's own values where they are already good. */
const recommend = (current: ReadonlyArray<Entry>) => {
  const keep: Record<string, string> = {}
  for (const entry of current) {
    const key = CONFIG_KEY[entry.name]
    if (key && entry.rating === "good" && entry.value !== null) keep[key] = entry.value
  }
  // The site's own good values are kept when the generator accepts them; the preset alone always is.
  return Either.getOrElse(generate({ preset: "recommended", config: keep }), () =>
    Either.getOrThrowWith(
      generate({ preset: "recommended" }),
      () => new Error("the recommended preset is invalid")
    )
  )
}

const unknownEntries = (): Array<Entry> =>
  INSPECTED.map((name) => ({
    name,
    present: false,
    value: null,
    status: "unknown",
    rating: "unknown",
    issues: []
  }))

/** Pure and total: every gathered outcome gives a complete result. */
export const analyse = (domain: string, gathered: HeadersGathered, scannedAt: Date): HeadersResult => {
  const url = `https://${domain}/`
  const base = { domain, scannedAt: scannedAt.toISOString(), url }
  if (gathered.kind === "failed") {
    const timedOut = gathered.reason === "timeout"
    // No HTTPS at all: nothing answers on 443, no address, or the name does not exist.
    const noHttps =
      gathered.reason === "connect" || gathered.reason === "no-address" || gathered.reason === "tls"
    const current: Array<Entry> = noHttps
      ? INSPECTED.map((name) => ({
          name,
          present: false,
          value: null,
          status: "missing",
          rating: "absent",
          issues: ["the site does not serve HTTPS, so no security header reaches browsers safely"]
        }))
      : unknownEntries()
    const rec = recommend([])
    return {
      ...base,
      finalUrl: null,
      statusCode: null,
      httpsAvailable: false,
      headerFetchTimedOut: timedOut,
      ...(timedOut
        ? {
            note: `The HTTPS request did not complete in time (${gathered.message}); header absence could not be verified.`
          }
        : {}),
      ...(timedOut ? {} : { fetchError: `${gathered.reason}: ${gathered.message}` }),
      current,
      missing: noHttps ? [...INSPECTED] : [],
      recommended: rec.config,
      outputs: rec.outputs,
      warnings: noHttps
        ? [
            `HTTPS is not available on ${domain}: ${gathered.message}`,
            ...(gathered.plainHttp
              ? [`${domain} answers over plain HTTP only: traffic can be read and changed in transit.`]
              : [])
          ]
        : []
    }
  }
  const headers = gathered.headers
  const csp = headers["content-security-policy"]
  const cspFrameAncestors =
    csp !== undefined && parsePolicies(csp).some((p) => directive(p, "frame-ancestors"))
  const current: Array<Entry> = INSPECTED.map((name) => {
    const value = headers[name.toLowerCase()]
    if (value !== undefined) return { name, present: true, value, ...JUDGES[name](value) }
    if (name === "X-Frame-Options" && cspFrameAncestors)
      return {
        name,
        present: false,
        value: null,
        status: "pass",
        rating: "good",
        issues: ["covered by CSP frame-ancestors"]
      }
    const issues =
      name === "Content-Security-Policy" && headers["content-security-policy-report-only"] !== undefined
        ? ["only Content-Security-Policy-Report-Only is set: violations are reported, nothing is blocked"]
        : []
    return { name, present: false, value: null, status: "missing", rating: "absent", issues }
  })
  const warnings: Array<string> = []
  if (gathered.tlsError !== null)
    warnings.push(
      `The certificate of ${domain} is not trusted (${gathered.tlsError}); browsers show an error page.`
    )
  const finalHost = URL.canParse(gathered.finalUrl) ? new URL(gathered.finalUrl).hostname : domain
  if (finalHost !== domain)
    warnings.push(
      `https://${domain}/ redirects to ${gathered.finalUrl}; the headers judged are that page's. HSTS for ${domain} itself must be sent by its own redirect response.`
    )
  if (gathered.status >= 400)
    warnings.push(`https://${domain}/ answered HTTP ${gathered.status}; headers of other pages may differ.`)
  for (const entry of current)
    for (const issue of entry.issues) if (entry.rating !== "good") warnings.push(`${entry.name}: ${issue}`)
  const rec = recommend(current)
  return {
    ...base,
    finalUrl: gathered.finalUrl,
    statusCode: gathered.status,
    httpsAvailable: gathered.tlsError === null,
    headerFetchTimedOut: false,
    current,
    missing: current.filter((e) => e.status === "missing").map((e) => e.name),
    recommended: rec.config,
    outputs: rec.outputs,
    warnings
  }
}

const fromError = (e: WebError): HeadersGathered => ({ kind: "failed", reason: e.reason, message: e.message })

/**
 * Fetch https://<domain>/ (redirects followed within the client's limits). A certificate the
 * client does not trust is read again without verification so the headers can still be judged.
 */
export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  const fetchPage = (verifyTls: boolean) =>
    facts
      .fetch(`https://${domain}/`, {
        verifyTls,
        accept: "text/html,*/*;q=0.8",
        maxBytes: 65_536,
        truncateBody: true
      })
      .pipe(
        Effect.map((res): HeadersGathered => ({
          kind: "response",
          status: res.status,
          headers: res.headers,
          finalUrl: res.finalUrl,
          redirects: res.redirects.length,
          tlsError: res.tls && !res.tls.authorized ? (res.tls.authorizationError ?? "untrusted") : null
        }))
      )
  // Without HTTPS, say whether the site is at least there over plain HTTP.
  const probePlain = (g: HeadersGathered) =>
    g.kind === "failed" && (g.reason === "connect" || g.reason === "tls")
      ? facts.fetch(`http://${domain}/`, { followRedirects: false, maxBytes: 4096, truncateBody: true }).pipe(
          Effect.map((): HeadersGathered => ({ ...g, plainHttp: true })),
          Effect.catchAll(() => Effect.succeed<HeadersGathered>({ ...g, plainHttp: false }))
        )
      : Effect.succeed(g)
  const gathered = yield* fetchPage(true).pipe(
    Effect.catchTag("WebError", (e) =>
      e.reason === "tls"
        ? fetchPage(false).pipe(
            Effect.map((g) =>
              g.kind === "response" && g.tlsError === null ? { ...g, tlsError: e.message } : g
            ),
            Effect.catchTag("WebError", () => Effect.succeed(fromError(e)))
          )
        : Effect.succeed(fromError(e))
    ),
    Effect.flatMap(probePlain)
  )
  return { domain, gathered }
}).pipe(Effect.withSpan("Headers.gather"))

export const Headers = define({
  id: "headers",
  title: "Security headers",
  category: "security",
  result: HeadersResult,
  gather,
  analyse: ({ domain, gathered }: { readonly domain: string; readonly gathered: HeadersGathered }, now) =>
    analyse(domain, gathered, now)
})
