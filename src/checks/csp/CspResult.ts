/**
 * The CSP scan's result (`POST /csp/scan`, SPEC "CSP scan result") and the pure step from a
 * crawl to it: the current policy and its findings, the inventory of origins the site uses, the
 * inline code counts and a synthesised policy checked against everything the crawl saw.
 */
import { Schema } from "effect"
import { DateTime, Strings } from "../../records/Schemas.ts"
import {
  CurrentCsp,
  currentCsp,
  Finding,
  findings,
  inlineCounts,
  inventory,
  InventoryEntry,
  Synthesis,
  synthesise,
  violations
} from "./CspAnalyse.ts"
import { type CrawlData, CrawlFailure } from "./CspCrawl.ts"

export const CspScanResult = Schema.Struct({
  url: Schema.String,
  origin: Schema.String,
  scannedAt: DateTime,
  cached: Schema.Boolean,
  strict: Schema.Boolean,
  pagesCrawled: Schema.Int,
  pagesFailed: Schema.Int,
  truncated: Schema.Boolean,
  currentCsp: CurrentCsp,
  findings: Schema.Array(Finding),
  inventory: Schema.Array(InventoryEntry),
  inlineScripts: Schema.Int,
  inlineStyles: Schema.Int,
  eventHandlerAttrs: Schema.Int,
  styleAttrs: Schema.Int,
  javascriptUrls: Schema.Int,
  synthesis: Schema.Struct({
    ...Synthesis.fields,
    /** Loads and inline blocks seen by the crawl that the synthesised policy would block (0 expected). */
    unresolvedViolations: Schema.Int
  }),
  crawl: Schema.Struct({
    pages: Strings,
    failures: Schema.Array(CrawlFailure),
    robotsDisallowed: Schema.Int,
    stylesheetsInspected: Schema.Int,
    elapsedMs: Schema.Finite
  })
})
export type CspScanResult = typeof CspScanResult.Type

/** Pure: crawl data to the spec's result (call only when at least one page was crawled). */
export const analyseCrawl = (data: CrawlData, strict: boolean, scannedAt: Date): CspScanResult => {
  const all = [...data.pages, ...data.stylesheets]
  const csp = currentCsp(data.pages[0])
  const counts = inlineCounts(data.pages)
  const synthesis = synthesise(all, data.origin)
  const unresolved = violations(synthesis.policyString, all, data.origin)
  return {
    url: data.startUrl,
    origin: data.origin,
    scannedAt: scannedAt.toISOString(),
    cached: false,
    strict,
    pagesCrawled: data.pages.length,
    pagesFailed: data.pagesFailed,
    truncated: data.truncated,
    currentCsp: csp,
    findings: findings(csp, strict),
    inventory: inventory(all, data.origin),
    ...counts,
    synthesis: { ...synthesis, unresolvedViolations: unresolved.length },
    crawl: {
      pages: data.pages.map((p) => p.url),
      failures: data.failures,
      robotsDisallowed: data.robotsDisallowed,
      stylesheetsInspected: data.stylesheets.length,
      elapsedMs: data.elapsedMs
    }
  }
}
