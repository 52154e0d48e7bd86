/**
 * How deep a scan goes: what a batch of a million domains trades for speed (docs/batch.md "Depth").
 * Only the TLS enumeration is ever left out: the ~15 handshakes per web name and address, and the
 * up to 16 SMTP sessions per mail server address, that ask which protocol versions and cipher
 * suites a server accepts (net/TlsScan.ts). Every other question of a scan costs a few DNS answers
 * or one connection, and is asked at every depth.
 *
 * - `full`: everything (the API's scan, and the batch's default);
 * - `standard`: the mail servers' TLS is enumerated, the web's is not: a list's mail servers are a
 *   few providers whose scans are shared across its domains (net/ProbeCache.ts), while its web
 *   addresses are mostly each domain's own;
 * - `quick`: neither; a web name costs one handshake per address, for its certificate, and a mail
 *   server the one STARTTLS session every depth makes.
 */
import { Schema } from "effect"

export const ScanDepths = ["quick", "standard", "full"] as const
export const ScanDepth = Schema.Literal(...ScanDepths)
export type ScanDepth = typeof ScanDepth.Type

/** The servers whose TLS configuration a scan may enumerate. */
export type TlsServers = "web" | "mail"

/** Whether a scan at `depth` enumerates the TLS versions and cipher suites of `servers`. */
export const enumeratesTls = (depth: ScanDepth, servers: TlsServers): boolean =>
  depth === "full" || (depth === "standard" && servers === "mail")

/** Shallower first: `quick` < `standard` < `full`. */
export const depthRank = (depth: ScanDepth): number => ScanDepths.indexOf(depth)

/** What a server's TLS view says where its versions and suites were not asked about. */
export const NOT_ENUMERATED =
  "TLS versions and cipher suites not checked at this scan's depth (certificate only)"
