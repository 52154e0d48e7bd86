/**
 * The gather half of the CSP scan: a breadth-first crawl of same-origin HTML pages through
 * `Facts.fetch` (the guarded client, memoised per scan), within a page cap and a total time
 * budget, honouring robots.txt.
 */
import { Clock, Effect, Schema } from "effect"
import type { WebError } from "../../net/Web.ts"
import { isInternalHostname } from "../../net/Targets.ts"
import { hostLiteral } from "../../records/IpAddress.ts"
import { Facts } from "../../kernel/Facts.ts"
import type { CrawledPage } from "./CspAnalyse.ts"
import { cssResources, extract, isHtml, type PageExtract, type Resource } from "./CspExtract.ts"
import { allowAll, disallowAll, isAllowed, parseRobots, type Robots } from "./CspRobots.ts"

export const USER_AGENT_TOKEN = "domain-audit"
const CONCURRENCY = 4
const MAX_QUEUE = 1_000
const MAX_STYLESHEETS = 10
const PAGE_BYTES = 2_097_152
const CSS_BYTES = 524_288

/** Why a URL cannot be scanned (400): the shapes the spec names, checked before any lookup. */
export type UrlRefusal = { readonly refused: string; readonly byAddressPolicy?: true }

/**
 * Normalise the user's input: a bare host (or host/path) becomes https://; refuse non-https,
 * credentials, IP literals in any form, localhost and internal names.
 */
export const normaliseScanUrl = (input: string): URL | UrlRefusal => {
  const text = input.trim()
  if (text === "") return { refused: "url is empty" }
  const withScheme =
    /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/:]+:\d+(\/|$)/.test(text) ? text : `https://${text}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return { refused: `not a valid URL: ${text}` }
  }
  if (url.protocol !== "https:") return { refused: `only https URLs can be scanned (got ${url.protocol})` }
  if (url.username !== "" || url.password !== "") return { refused: "URLs with credentials are not scanned" }
  const host = url.hostname
  if (hostLiteral(host) !== undefined)
    return { refused: "IP address literals are not scanned; use a host name", byAddressPolicy: true }
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+\.?$/.test(host)) return { refused: `invalid host name: ${host}` }
  if (isInternalHostname(host))
    return { refused: `internal host names are not scanned: ${host}`, byAddressPolicy: true }
  url.hash = ""
  return url
}

export const CrawlFailure = Schema.Struct({ url: Schema.String, reason: Schema.String })
export type CrawlFailure = typeof CrawlFailure.Type

export interface CrawlData {
  readonly startUrl: string
  /** The crawl's origin: the start page's origin after its redirects. */
  readonly origin: string
  readonly pages: ReadonlyArray<CrawledPage>
  /** Stylesheets fetched for url()/@import targets, as pseudo-pages carrying only resources. */
  readonly stylesheets: ReadonlyArray<CrawledPage>
  readonly pagesFailed: number
  readonly failures: ReadonlyArray<CrawlFailure>
  readonly truncated: boolean
  readonly robotsDisallowed: number
  /** The start page's own failure, when nothing could be crawled. */
  readonly startError: WebError | null
  readonly elapsedMs: number
}

const linkKey = (u: URL) => {
  const c = new URL(u.href)
  c.hash = ""
  return c.href
}

const emptyExtract = (resources: ReadonlyArray<Resource>): PageExtract => ({
  links: [],
  resources,
  inlineScripts: [],
  inlineStyles: [],
  eventHandlers: [],
  styleAttributes: [],
  javascriptUrls: 0,
  metaCsp: [],
  baseHref: null
})

export const crawl = Effect.fn("Csp.crawl")(function* (
  start: URL,
  limits: { readonly maxPages: number; readonly budgetMs: number }
) {
  const facts = yield* Facts
  const t0 = yield* Clock.currentTimeMillis
  const deadline = t0 + limits.budgetMs
  const remaining = Effect.map(Clock.currentTimeMillis, (now) => deadline - now)
  const decoder = new TextDecoder()

  // The budget left is this asker's timeout, not part of the question: the fetch memo ignores it.
  const fetchWithin = (url: string, options: { accept: string; maxBytes: number }) =>
    Effect.flatMap(remaining, (left) =>
      left <= 0
        ? Effect.succeed(null)
        : facts.fetch(url, { ...options, timeoutMs: left }).pipe(
            Effect.map((res) => ({ res })),
            Effect.either
          )
    )

  // The start page first: its final origin (after e.g. example.com -> www.example.com) is the site.
  const first = yield* fetchWithin(start.href, {
    accept: "text/html,application/xhtml+xml",
    maxBytes: PAGE_BYTES
  })
  const pages: Array<CrawledPage> = []
  const failures: Array<CrawlFailure> = []
  let origin = start.origin
  const queue: Array<URL> = []
  const seen = new Set<string>([linkKey(start)])
  let truncated = false
  let robotsDisallowed = 0
  let startError: WebError | null = null

  const record = (
    url: string,
    status: number,
    headers: Readonly<Record<string, string>>,
    body: Uint8Array
  ) => {
    const page: CrawledPage = {
      url,
      status,
      cspHeader: headers["content-security-policy"] ?? null,
      cspReportOnlyHeader: headers["content-security-policy-report-only"] ?? null,
      extract: extract(decoder.decode(body), url)
    }
    pages.push(page)
    return page
  }

  let robots: Robots = allowAll
  const enqueue = (page: CrawledPage) => {
    for (const link of page.extract.links) {
      let u: URL
      try {
        u = new URL(link)
      } catch {
        continue
      }
      if (u.origin !== origin) continue
      const key = linkKey(u)
      if (seen.has(key)) continue
      seen.add(key)
      if (!isAllowed(robots, u.pathname + u.search)) {
        robotsDisallowed++
        continue
      }
      if (queue.length < MAX_QUEUE) queue.push(u)
      else truncated = true
    }
  }

  if (first === null) truncated = true
  else if (first._tag === "Left") {
    startError = first.left
    failures.push({ url: start.href, reason: `${first.left.reason}: ${first.left.message}` })
  } else {
    const res = first.right.res
    const final = new URL(res.finalUrl)
    if (final.protocol === "https:") origin = final.origin
    if (res.status >= 400) failures.push({ url: start.href, reason: `HTTP ${res.status}` })
    else if (!isHtml(res.headers["content-type"]))
      failures.push({ url: start.href, reason: `not HTML (${res.headers["content-type"]})` })
    else {
      // RFC 9309: 4xx means no restrictions, 5xx or unreachable means "disallow all" for discovered links.
      const robotsRes = yield* fetchWithin(`${origin}/robots.txt`, {
        accept: "text/plain",
        maxBytes: 524_288
      })
      if (robotsRes !== null && robotsRes._tag === "Right") {
        const r = robotsRes.right.res
        robots =
          r.status >= 200 && r.status < 300
            ? parseRobots(decoder.decode(r.body), USER_AGENT_TOKEN)
            : r.status >= 500
              ? disallowAll
              : allowAll
      } else if (robotsRes !== null && robotsRes.left.reason !== "no-address") robots = disallowAll
      enqueue(record(res.finalUrl, res.status, res.headers, res.body))
    }
  }

  while (queue.length > 0 && pages.length + failures.length < limits.maxPages) {
    if ((yield* remaining) <= 0) break
    const room = limits.maxPages - pages.length - failures.length
    const batch = queue.splice(0, Math.min(CONCURRENCY, room))
    const results = yield* Effect.forEach(
      batch,
      (u) => fetchWithin(u.href, { accept: "text/html,application/xhtml+xml", maxBytes: PAGE_BYTES }),
      { concurrency: CONCURRENCY }
    )
    results.forEach((r, i) => {
      const u = batch[i]!
      if (r === null) {
        queue.unshift(u)
        return
      }
      if (r._tag === "Left")
        return void failures.push({ url: u.href, reason: `${r.left.reason}: ${r.left.message}` })
      const res = r.right.res
      if (new URL(res.finalUrl).origin !== origin)
        return void failures.push({ url: u.href, reason: `redirected off the origin to ${res.finalUrl}` })
      if (res.status >= 400) return void failures.push({ url: u.href, reason: `HTTP ${res.status}` })
      if (!isHtml(res.headers["content-type"])) return
      enqueue(record(res.finalUrl, res.status, res.headers, res.body))
    })
  }
  if (queue.length > 0) truncated = true

  // Stylesheets hold the font and background-image loads: fetch a few within what is left.
  const cssUrls = [
    ...new Set(
      pages.flatMap((p) => p.extract.resources.filter((r) => r.directive === "style-src").map((r) => r.url))
    )
  ]
    .filter((u) => u.startsWith("https:"))
    .slice(0, MAX_STYLESHEETS)
  const sheets = yield* Effect.forEach(
    cssUrls,
    (u) => fetchWithin(u, { accept: "text/css", maxBytes: CSS_BYTES }),
    {
      concurrency: CONCURRENCY
    }
  )
  const stylesheets: Array<CrawledPage> = []
  sheets.forEach((r, i) => {
    if (r === null || r._tag === "Left" || r.right.res.status >= 400) return
    const url = r.right.res.finalUrl
    const resources = cssResources(decoder.decode(r.right.res.body), new URL(url))
    if (resources.length > 0 && cssUrls[i])
      stylesheets.push({
        url,
        status: 200,
        cspHeader: null,
        cspReportOnlyHeader: null,
        extract: emptyExtract(resources)
      })
  })

  const t1 = yield* Clock.currentTimeMillis
  return {
    startUrl: start.href,
    origin,
    pages,
    stylesheets,
    pagesFailed: failures.length,
    failures,
    truncated,
    robotsDisallowed,
    startError,
    elapsedMs: t1 - t0
  } satisfies CrawlData
})
