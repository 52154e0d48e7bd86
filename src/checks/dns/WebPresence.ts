/**
 * Whether the domain has a web site to judge, read from the `dns-records` check: rules of the web
 * checks are not applicable without an A or AAAA at the apex, and fail for a name that does not
 * exist. Null when there is a site (or the lookup could not say: the web checks' own results then
 * decide between unknown and a verdict).
 */
import { fail, notApplicable, type Verdict } from "../../kernel/Declaration.ts"
import type { LookupResult } from "./LookupResult.ts"
import { noSuchDomain } from "./Rules.ts"

export const noWebSite = (lookup: LookupResult | null): Verdict | null => {
  if (lookup === null) return null
  if (noSuchDomain(lookup)) return fail("no such domain (NXDOMAIN)", "dns_no_such_domain")
  const hasWebAddress = ["A", "AAAA"].some((t) => (lookup.records[t] ?? []).some((r) => r.type === t))
  return hasWebAddress ? null : notApplicable("no A or AAAA at the apex: no web site")
}
