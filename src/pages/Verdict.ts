/**
 * Whether a finished scan can be shown as a report, or why not: the score's "unscannable" verdict
 * (docs/scoring.md "A domain that cannot be graded"), told apart into a name that does not exist
 * (the DNS said NXDOMAIN, RFC 8020: a page with 404) and a scan that could not ask (resolver down:
 * 503, try again). Pure.
 */
import { noSuchDomain } from "../checks/dns/Rules.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { unscannableReason } from "../score/Scannable.ts"

export type Verdict =
  | { readonly _tag: "Scannable" }
  | { readonly _tag: "Unscannable"; readonly nxdomain: boolean; readonly reason: string }

export const verdictOf = (scan: ScanResult): Verdict => {
  const reason = unscannableReason(scan)
  if (reason === null) return { _tag: "Scannable" }
  const lookup = scan.checks["dns-records"].result
  return { _tag: "Unscannable", nxdomain: lookup !== null && noSuchDomain(lookup), reason }
}
