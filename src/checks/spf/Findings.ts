/**
 * The finding ids the SPF check emits (`findings[].id` of its result) and the catalogue issue each
 * one is; `null` marks a finding that is information, not an issue (a lookup that failed is
 * `unknown`, never an issue). `test/score/catalogue.test.ts` fails when the check emits an id not
 * listed. These issues cost no points of their own: the score lists them beside the rules' issues.
 */
import { findingsOf } from "../Declaration.ts"
import type { SpfResult } from "./Spf.ts"

export const findingIssues: Readonly<Record<string, string | null>> = {
  "spf-unknown": null,
  "spf-missing": "spf_missing",
  "spf-multiple": "spf_multiple_records",
  "spf-too-many-lookups": "spf_too_many_lookups",
  "spf-lookups-near-limit": "spf_lookups_near_limit",
  "spf-too-many-void-lookups": "spf_too_many_void_lookups",
  "spf-void-lookup": null,
  "spf-loop": "spf_loop",
  "spf-dns-unknown": null,
  "spf-include-pass-all": "spf_include_pass_all",
  "spf-ptr": "spf_ptr_mechanism",
  "spf-graph-truncated": null,
  "spf-softfail": "spf_softfail_all",
  "spf-no-all": "spf_neutral_all",
  "spf-answer-too-large": "spf_answer_too_large",
  "spf-syntax": "spf_invalid",
  "spf-nested-error": "spf_include_broken",
  "spf-include-broken": "spf_include_broken",
  "spf-mx-too-many": "spf_mx_too_many",
  "spf-neutral-all": "spf_neutral_all",
  "spf-pass-all": "spf_plus_all",
  "spf-warning": null
}

export const findings = (result: SpfResult): ReadonlyArray<string> =>
  findingsOf(findingIssues, result.findings)
