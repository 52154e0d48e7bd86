/**
 * The web settings of AppConfig (`Config.ts` spreads them into its settings): the HTTPS client that
 * fetches a domain's pages, and the CSP crawler.
 */
import { Config } from "effect"
import { int, ms, ports } from "./ConfigValues.ts"

export const webSettings = {
  // HTTPS client
  httpConnectTimeoutMs: ms("HTTP_CONNECT_TIMEOUT_MS", 5_000),
  httpTimeoutMs: ms("HTTP_TIMEOUT_MS", 10_000),
  httpMaxBodyBytes: Config.integer("HTTP_MAX_BODY_BYTES").pipe(Config.withDefault(2_097_152)),
  httpMaxHeaderBytes: Config.integer("HTTP_MAX_HEADER_BYTES").pipe(Config.withDefault(32_768)),
  httpAllowedPorts: ports("HTTP_ALLOWED_PORTS", "443"),
  // CSP crawler
  cspMaxPages: Config.integer("CSP_MAX_PAGES").pipe(Config.withDefault(20)),
  cspBudgetMs: ms("CSP_BUDGET_MS", 45_000),
  // a crawl's result is served again for this long, per origin and mode
  cspCacheTtlMs: ms("CSP_CACHE_TTL_MS", 600_000),
  // new CSP crawls per client (cache hits are free): 3 at once, 3 more per 10 minutes
  cspScanBurst: int("CSP_SCAN_BURST", 3),
  cspScanPerHour: int("CSP_SCAN_PER_HOUR", 18)
}
