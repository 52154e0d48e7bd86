/**
 * Whether a finished scan says anything about its domain: the one "unscannable" verdict every
 * presentation shows (docs/scoring.md "A domain that cannot be graded"). A name that does not exist
 * (NXDOMAIN) or whose DNS could not be asked at all has no grade worth showing: the score says why
 * (grade F, percentage 0), the badge shows "unscannable", NIS2 `unscannable`, and the hall of fame
 * does not record it (docs/presentation.md). Pure.
 */
import { noSuchDomain } from "../checks/dns/Rules.ts"
import type { ScanResult } from "../scan/ScanResult.ts"

/** Why `scan` cannot grade its domain, or null when it can. */
export const unscannableReason = (scan: ScanResult): string | null => {
  const lookup = scan.checks["dns-records"]
  if (lookup.result !== null && noSuchDomain(lookup.result)) return `${scan.domain} does not exist (NXDOMAIN)`
  // A bogus zone explains the silence: validating resolvers answer SERVFAIL for data that fails
  // validation (RFC 4035 5.5), which is a verdict on the domain (fatal, grade F), not an outage.
  if (scan.checks.dnssec.result?.state === "bogus") return null
  if (lookup.status !== "done" || lookup.result === null)
    return `the DNS lookup of ${scan.domain} did not finish: ${lookup.reason ?? "no result"}`
  // answer or nodata: the name's zone answered at least one question (RFC 2308 2.2: NODATA is an answer)
  const answered = Object.values(lookup.result.outcomes).some((o) => o === "answer" || o === "nodata")
  return answered ? null : `no DNS question about ${scan.domain} was answered`
}
