/**
 * HTTP to HTTPS: what http://<host>/ on port 80 answers, for the apex and www, judged hop by hop as
 * the MDN HTTP Observatory's redirection test does: the first redirect must go to https:// on the
 * same host (else the browser never sees that host's HSTS, RFC 6797 §7.2, §8.1), the chain must end
 * on https, and the HTTPS answer of the host must carry Strict-Transport-Security. A host with
 * nothing on port 80 but HTTPS serves no plain HTTP to downgrade to: `https-only`, a pass (as the
 * Observatory and internet.nl count it). Each hop is fetched without following redirects, through
 * Facts, so a URL two chains share is fetched once.
 */
import { Effect } from "effect"
import { define, traced, overDomain } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { judgeHsts } from "../headers/Judges.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { SECURE, HostVerdict, HttpRedirectResult, HostRedirect } from "./HttpRedirectResult.ts"

export * from "./HttpRedirectResult.ts"

/** Redirects followed after the first (browsers allow 20; a longer chain is a misconfiguration). */
const MAX_HOPS = 6

/** One answer of the chain (`location` set when it redirects). */
export interface Hop {
  readonly url: string
  readonly status: number
  readonly location: string | null
  /** Strict-Transport-Security as sent (https answers only). */
  readonly hsts: string | null
}

/** What gather saw for one host: the chain from http://<host>/, or why it could not be walked. */
export type HostGathered =
  | {
      readonly kind: "chain"
      readonly hops: ReadonlyArray<Hop>
      /** Why the chain stopped before an answer that is not a redirect (null: it ended on one). */
      readonly broken: string | null
    }
  /** Nothing answers http://<host>/ (port 80 closed); `https` is https://<host>/'s own answer. */
  | { readonly kind: "no-http"; readonly https: Hop | null; readonly error: string }
  | { readonly kind: "absent" }
  | { readonly kind: "unknown"; readonly error: string }

export interface RedirectGathered {
  readonly apex: HostGathered
  readonly www: HostGathered
}

const parse = (url: string) => (URL.canParse(url) ? new URL(url) : null)

const hstsOf = (hop: Hop | undefined): Pick<HostRedirect, "hsts" | "hstsRating"> => {
  if (hop === undefined) return { hsts: null, hstsRating: "unknown" }
  if (hop.hsts === null) return { hsts: null, hstsRating: "absent" }
  const { rating } = judgeHsts(hop.hsts)
  return { hsts: hop.hsts, hstsRating: rating === "good" || rating === "weak" ? rating : "ineffective" }
}

const blank = (host: string, verdict: HostVerdict, error?: string): HostRedirect => ({
  host,
  verdict,
  statusCode: null,
  location: null,
  firstHopSameHost: null,
  hops: [],
  finalUrl: null,
  finalHttps: null,
  hsts: null,
  hstsRating: "unknown",
  ...(error === undefined ? {} : { error }),
  issues: []
})

/** Judge one host's chain. Pure and total. */
export const judgeHost = (host: string, g: HostGathered): HostRedirect => {
  if (g.kind === "absent") return blank(host, "absent")
  if (g.kind === "unknown") return blank(host, "unknown", g.error)
  if (g.kind === "no-http") {
    if (g.https === null) return blank(host, "no-web-server", g.error)
    const hsts = hstsOf(g.https)
    return {
      ...blank(host, "https-only"),
      finalUrl: g.https.url,
      finalHttps: true,
      ...hsts,
      issues: [
        `nothing answers on port 80: visitors who type ${host} get an error instead of a redirect, though nothing is served over plain HTTP`,
        ...(hsts.hstsRating === "absent" ? [`https://${host}/ sends no Strict-Transport-Security`] : [])
      ]
    }
  }
  const hops = g.hops.map(({ url, status, location }) => ({ url, status, location }))
  const first = g.hops[0]!
  const last = g.hops.at(-1)!
  const base = { host, statusCode: first.status, location: first.location, hops }
  if (first.location === null)
    return {
      ...blank(host, "no-redirect"),
      ...base,
      finalUrl: first.url,
      finalHttps: false,
      issues: [
        `http://${host}/ answers ${first.status} over plain HTTP instead of redirecting to https://${host}/`
      ]
    }
  const target = parse(first.location)
  const sameHost = target !== null && target.protocol === "https:" && target.hostname === host
  const finalHttps = g.broken === null && last.location === null && last.url.startsWith("https://")
  // HSTS counts on the host's own HTTPS answer: the hop a same-host redirect lands on (RFC 6797 §8.1).
  const ownHttps = g.hops.find((h) => h.url.startsWith(`https://${host}/`) || h.url === `https://${host}`)
  const hsts = hstsOf(ownHttps)
  const verdict: HostVerdict = !finalHttps
    ? "not-https"
    : sameHost
      ? "redirects-to-https"
      : target?.protocol === "https:"
        ? "redirects-elsewhere-first"
        : "redirects-via-http"
  const issues: Array<string> = []
  if (verdict === "not-https")
    issues.push(
      g.broken !== null
        ? `the redirect chain from http://${host}/ breaks: ${g.broken}`
        : `the redirect chain from http://${host}/ ends on ${last.url}, not on https`
    )
  if (verdict === "redirects-elsewhere-first")
    issues.push(
      `http://${host}/ redirects first to ${first.location}, another host: browsers never reach https://${host}/, so its HSTS is never set`
    )
  if (verdict === "redirects-via-http")
    issues.push(`http://${host}/ redirects first to ${first.location}, still plain HTTP, before HTTPS`)
  if (sameHost && hsts.hstsRating === "absent")
    issues.push(`https://${host}/ sends no Strict-Transport-Security`)
  return {
    ...base,
    verdict,
    firstHopSameHost: sameHost,
    finalUrl: g.broken === null ? last.url : null,
    finalHttps,
    ...hsts,
    ...(g.broken === null ? {} : { error: g.broken }),
    issues
  }
}

/** Pure and total: every gathered outcome gives a complete result. */
export const analyse = (domain: string, g: RedirectGathered, now: Date): HttpRedirectResult => {
  const apex = judgeHost(domain, g.apex)
  const www = judgeHost(`www.${domain}`, g.www)
  const comparable = www.verdict !== "absent" && www.verdict !== "unknown" && apex.verdict !== "unknown"
  const hstsSent = (h: HostRedirect) => h.hsts !== null
  const wwwConsistent = comparable
    ? SECURE.has(apex.verdict) === SECURE.has(www.verdict) && hstsSent(apex) === hstsSent(www)
    : null
  const issues = [...apex.issues, ...www.issues]
  if (wwwConsistent === false)
    issues.push(
      `www.${domain} (${www.verdict}, HSTS ${www.hstsRating}) does not behave as ${domain} (${apex.verdict}, HSTS ${apex.hstsRating})`
    )
  return { domain, checkedAt: now.toISOString(), apex, www, wwwConsistent, issues }
}

const HOP_OPTIONS = { followRedirects: false, maxBytes: 4096, truncateBody: true } as const

/** Walk http://<host>/ hop by hop (each hop a memoised fetch). */
export const walkHost = (host: string) =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const fetchHop = (url: string) =>
      facts.fetch(url, HOP_OPTIONS).pipe(
        Effect.map((res): Hop => {
          const location = res.headers["location"]
          const redirects = res.status >= 300 && res.status < 400 && location !== undefined
          return {
            url,
            status: res.status,
            location: redirects && URL.canParse(location, url) ? new URL(location, url).href : null,
            hsts: url.startsWith("https:") ? (res.headers["strict-transport-security"] ?? null) : null
          }
        }),
        Effect.either
      )
    const first = yield* fetchHop(`http://${host}/`)
    if (first._tag === "Left") {
      const e = first.left
      if (e.reason === "no-address") return { kind: "absent" } satisfies HostGathered as HostGathered
      if (e.reason !== "connect")
        return { kind: "unknown", error: `${e.reason}: ${e.message}` } satisfies HostGathered as HostGathered
      const https = yield* fetchHop(`https://${host}/`)
      if (https._tag === "Left" && (https.left.reason === "timeout" || https.left.reason === "dns"))
        return {
          kind: "unknown",
          error: `https://${host}/: ${https.left.message}`
        } satisfies HostGathered as HostGathered
      return {
        kind: "no-http",
        https: https._tag === "Right" ? https.right : null,
        error: `${e.reason}: ${e.message}`
      } satisfies HostGathered as HostGathered
    }
    const hops: Array<Hop> = [first.right]
    let broken: string | null = null
    for (let next = first.right.location; next !== null;) {
      if (hops.length > MAX_HOPS) {
        broken = `more than ${MAX_HOPS} redirects`
        break
      }
      if (hops.some((h) => h.url === next)) {
        broken = `a redirect loop back to ${next}`
        break
      }
      const hop = yield* fetchHop(next)
      if (hop._tag === "Left") {
        // A timeout mid-chain is not a verdict on the site: unknown, never "broken".
        if (hop.left.reason === "timeout" || hop.left.reason === "dns")
          return {
            kind: "unknown",
            error: `${next}: ${hop.left.message}`
          } satisfies HostGathered as HostGathered
        broken = `${next} does not answer (${hop.left.reason}: ${hop.left.message})`
        break
      }
      hops.push(hop.right)
      next = hop.right.location
    }
    return { kind: "chain", hops, broken } satisfies HostGathered as HostGathered
  })

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  // www's first hop starts now, so the two chains overlap without a fiber each.
  yield* facts.startFetch(`http://www.${domain}/`, HOP_OPTIONS)
  const apex = yield* walkHost(domain)
  const www = yield* walkHost(`www.${domain}`)
  return { domain, gathered: { apex, www } satisfies RedirectGathered }
}).pipe(traced("HttpRedirect.gather", {}))

export const HttpRedirect = define(about, { gather, analyse: overDomain(analyse), exampleGathered })
