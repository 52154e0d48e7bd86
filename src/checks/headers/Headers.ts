/**
 * Security headers of https://<domain>/ (`GET /security-headers/analyze`): gather (the HTTPS fetch
 * of the site, and an http:// probe when there is no HTTPS, both through `Facts.fetch`) and a
 * pure, total `analyse`. "Unknown is not missing": when the fetch times out or DNS fails, every
 * header is `unknown` and nothing is reported missing.
 */
import { Effect, Either } from "effect"
import { generate, type HeadersConfig } from "../../records/SecurityHeaders.ts"
import { setCookieValues, type WebError, type WebErrorReason } from "../../net/Web.ts"
import { directive, parsePolicies } from "../../records/CspPolicy.ts"
import { define, traced, overDomain } from "../../kernel/Check.ts"
import { isHtml, metaPolicies, metaReferrer, type ScriptElement, scriptElements } from "../csp/CspExtract.ts"
import { readPageCsp } from "../csp/PagePolicy.ts"
import { Facts } from "../../kernel/Facts.ts"
import { INSPECTED, type InspectedHeader, JUDGES, judgeCsp, judgeReferrer } from "./Judges.ts"
import { about, served } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { judgeContent, PROBE_ORIGIN } from "./WebContent.ts"
import { HeadersResult, HeaderEntry } from "./HeadersResult.ts"

export * from "./HeadersResult.ts"

export {
  INSPECTED,
  type InspectedHeader,
  judgeCsp,
  judgeFrameOptions,
  judgeHsts,
  judgeNosniff,
  judgePermissions,
  judgeReferrer
} from "./Judges.ts"

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
      /** Policies of the page's `<meta http-equiv="Content-Security-Policy">` elements (CSP3 §3.3). */
      readonly metaCsp: ReadonlyArray<string>
      /** The referrer policy the page's `<meta name="referrer">` elements set (null: none). */
      readonly metaReferrer?: string | null
      /** Only the first part of the page was read (a meta element further down was not seen). */
      readonly bodyTruncated: boolean
      /** When the certificate of the final page's host expires (RFC 5280 §4.1.2.5 notAfter), ISO. */
      readonly certificateExpiresAt?: string | null
      /** Every Set-Cookie header of the final response, one cookie each (RFC 6265bis 5.6). */
      readonly setCookies?: ReadonlyArray<string>
      /** The page's `<script>` elements; absent when the response is not HTML. */
      readonly scripts?: ReadonlyArray<ScriptElement>
      /** The headers of the same page asked with an `Origin` (CORS); null when that request failed. */
      readonly corsHeaders?: Readonly<Record<string, string>> | null
    }
  | {
      readonly kind: "failed"
      readonly reason: WebErrorReason
      readonly message: string
      /** Whether http://<domain>/ answered (probed only when HTTPS is absent). */
      readonly plainHttp?: boolean
    }

/** An entry as `analyse` builds it: for one of the inspected headers. */
type Entry = HeaderEntry & { readonly name: InspectedHeader }

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
  const reading = readPageCsp({
    header: csp ?? null,
    reportOnlyHeader: headers["content-security-policy-report-only"] ?? null,
    meta: gathered.metaCsp,
    bodyTruncated: gathered.bodyTruncated
  })
  // Only a header's frame-ancestors counts: browsers ignore it in a meta policy (CSP3 §3.3).
  const cspFrameAncestors =
    csp !== undefined && parsePolicies(csp).some((p) => directive(p, "frame-ancestors"))
  const referrerMeta = gathered.metaReferrer ?? null
  const current: Array<Entry> = INSPECTED.map((name) => {
    const value = headers[name.toLowerCase()]
    // A page's <meta name="referrer"> sets the document's policy after the header (HTML
    // "Standard metadata names"), so browsers apply the meta's: it is what is judged.
    if (name === "Referrer-Policy" && referrerMeta !== null) {
      const judged = judgeReferrer(referrerMeta)
      const delivered =
        value === undefined
          ? `no header: the policy is set by <meta name="referrer" content="${referrerMeta}">`
          : `<meta name="referrer" content="${referrerMeta}"> overrides the header's ${value} for the page`
      return {
        name,
        present: value !== undefined,
        value: value ?? null,
        ...judged,
        issues: [delivered, ...judged.issues]
      }
    }
    if (value !== undefined) return { name, present: true, value, ...JUDGES[name](value) }
    // No header, but the page enforces a policy from a meta element: judged as that policy.
    if (name === "Content-Security-Policy" && reading.metaPolicy !== null) {
      const judged = judgeCsp(reading.metaPolicy)
      return {
        name,
        present: false,
        value: null,
        ...judged,
        issues: [
          `no header: the policy is delivered by a <meta http-equiv> element (see csp), which cannot set frame-ancestors, report-uri or sandbox (CSP3 §3.3)`,
          ...judged.issues
        ]
      }
    }
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
  if (reading.metaIgnored.length > 0)
    warnings.push(
      `Content-Security-Policy: the meta element's ${reading.metaIgnored.join(", ")} ${reading.metaIgnored.length > 1 ? "are" : "is"} ignored by browsers; send ${reading.metaIgnored.length > 1 ? "them" : "it"} in a header (CSP3 §3.3)`
    )
  const rec = recommend(current)
  const content = judgeContent(gathered, domain, current)
  for (const issue of content.warnings) warnings.push(issue)
  return {
    ...base,
    ...content.fields,
    finalUrl: gathered.finalUrl,
    statusCode: gathered.status,
    httpsAvailable: gathered.tlsError === null,
    headerFetchTimedOut: false,
    ...(gathered.tlsError === null ? {} : { certificateError: gathered.tlsError }),
    ...(gathered.certificateExpiresAt ? { certificateExpiresAt: gathered.certificateExpiresAt } : {}),
    current,
    // Confidently missing means not sent (SPEC): a header that is sent but protects nothing (an
    // unsafe CSP, an ignored X-Frame-Options) is judged in its entry, not listed as missing.
    missing: current.filter((e) => e.status === "missing" && !e.present).map((e) => e.name),
    recommended: rec.config,
    outputs: rec.outputs,
    warnings,
    csp: reading
  }
}

/** node's certificate dates ("Mar  1 00:00:00 2027 GMT") as ISO, or null. */
const isoOrNull = (text: string | undefined): string | null => {
  const ms = text === undefined ? NaN : Date.parse(text)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null
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
        Effect.map((res): HeadersGathered => {
          // The page itself may deliver the policy (CSP3 §3.3); the head comes first in the body.
          const html = isHtml(res.headers["content-type"]) ? new TextDecoder().decode(res.body) : null
          return {
            kind: "response",
            status: res.status,
            headers: res.headers,
            finalUrl: res.finalUrl,
            redirects: res.redirects.length,
            tlsError: res.tls && !res.tls.authorized ? (res.tls.authorizationError ?? "untrusted") : null,
            certificateExpiresAt: isoOrNull(res.tls?.peerCertificate?.validTo),
            metaCsp: html === null ? [] : metaPolicies(html),
            metaReferrer: html === null ? null : metaReferrer(html),
            bodyTruncated: res.truncated === true,
            // Browsers also store what the redirects on the way set, as the Observatory's cookie jar does.
            setCookies: [
              ...res.redirects.flatMap((r) => r.setCookies ?? []),
              ...setCookieValues(res.rawHeaders)
            ],
            ...(html === null ? {} : { scripts: scriptElements(html) })
          }
        })
      )
  // The same page asked as another site's script would (WHATWG Fetch 3.2: a request with Origin).
  const withCors = (g: HeadersGathered) =>
    g.kind === "response"
      ? facts
          .fetch(`https://${domain}/`, {
            verifyTls: g.tlsError === null,
            headers: { Origin: PROBE_ORIGIN },
            maxBytes: 4096,
            truncateBody: true
          })
          .pipe(
            Effect.map((res): HeadersGathered => ({ ...g, corsHeaders: res.headers })),
            Effect.catchAll(() => Effect.succeed<HeadersGathered>({ ...g, corsHeaders: null }))
          )
      : Effect.succeed(g)
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
    Effect.flatMap(probePlain),
    Effect.flatMap(withCors)
  )
  return { domain, gathered }
}).pipe(traced("Headers.gather", {}))

export const Headers = define(about, { served, gather, analyse: overDomain(analyse), exampleGathered })
