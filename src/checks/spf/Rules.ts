/** The rules of the SPF check (docs/scoring.md): one valid record, and its policy. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { SpfResult } from "./SpfResult.ts"

export const SPF_SPECS = {
  spfValid: spec({
    id: "email.spf.valid",
    title: "SPF record",
    titleNl: "SPF-record",
    category: "email",
    concerns: "mail",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "One v=spf1 record without permerror (at most 10 lookups and 2 void lookups, RFC 7208 4.6.4)",
    rank: 10
  }),
  spfPolicy: spec({
    id: "email.spf.policy",
    title: "SPF policy",
    titleNl: "SPF-beleid",
    category: "email",
    concerns: "mail",
    maxPoints: 4,
    level: "required",
    rule: "-all 4, ~all 3, ?all or none 1; +all is fatal (grade F)",
    rank: 20
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly spf: SpfResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const spf = c.spf
  const spfValid = judge(spf, (s) => {
    if (s.status === "unknown") return unknown("the SPF record could not be looked up")
    if (!s.exists) return fail("no SPF record", "spf_missing")
    if (s.records.length > 1) return fail(`${s.records.length} SPF records`, "spf_multiple_records")
    if (s.lookups > s.lookupLimit)
      return fail(`${s.lookups} DNS lookups (limit ${s.lookupLimit})`, "spf_too_many_lookups")
    if (s.voidLookups > s.voidLookupLimit)
      return fail(`${s.voidLookups} void lookups (limit ${s.voidLookupLimit})`, "spf_too_many_void_lookups")
    return s.valid ? pass("one valid SPF record") : fail("permerror", "spf_invalid")
  })
  const spfPolicy = judge(spf, (s): Verdict => {
    if (s.status === "unknown") return unknown("the SPF record could not be looked up")
    if (!s.exists) return fail("no SPF record", "spf_missing")
    switch (s.policy) {
      case "fail":
        return pass("-all")
      case "softfail":
        return partial(3, "~all", "spf_softfail_all")
      case "pass":
        return {
          status: "fail",
          detail: "+all lets anyone send as the domain",
          issues: ["spf_plus_all"],
          fatal: true
        }
      case "unknown":
        return unknown("the policy's redirect could not be looked up")
      default:
        return partial(1, `${s.policy === "neutral" ? "?all or no all" : "no policy"}`, "spf_neutral_all")
    }
  })
  return [scored(SPF_SPECS.spfValid, spfValid), scored(SPF_SPECS.spfPolicy, spfPolicy)]
}

export const rules = rulesOver<Reads>(Object.values(SPF_SPECS), records)
