/**
 * Whether a finished scan says anything about its domain. A name that does not exist (NXDOMAIN) or
 * whose DNS could not be asked at all has no grade worth showing: the badge shows "unknown" and the
 * hall of fame does not record it (docs/presentation.md). Pure.
 */
import { noSuchDomain } from "../checks/dns/Rules.ts"
import type { ScanResult } from "../checks/ScanResult.ts"

/** Why `scan` cannot grade its domain, or null when it can. */
export const unscannableReason = (scan: ScanResult): string | null => {
  const lookup = scan.checks["dns-records"]
  if (lookup.status !== "done" || lookup.result === null)
    return `the DNS lookup of ${scan.domain} did not finish: ${lookup.reason ?? "no result"}`
  if (noSuchDomain(lookup.result)) return `${scan.domain} does not exist (NXDOMAIN)`
  // answer or nodata: the name's zone answered at least one question (RFC 2308 2.2: NODATA is an answer)
  const answered = Object.values(lookup.result.outcomes).some((o) => o === "answer" || o === "nodata")
  return answered ? null : `no DNS question about ${scan.domain} was answered`
}
