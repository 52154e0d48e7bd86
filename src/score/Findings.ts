import type { IssueId } from "./Catalogue.ts"

/**
 * The finding ids the checks emit (`findings[].id` of the SPF and DMARC results) and the catalogue
 * issue each one is; `null` marks a finding that is information, not an issue (a lookup that failed is
 * `unknown`, never an issue). `test/score/catalogue.test.ts` fails when a check emits an id not listed.
 */
export const findingIssues: Readonly<Record<string, IssueId | null>> = {
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
  "spf-warning": null,
  "dmarc-lookup-failed": null,
  "dmarc-missing": "dmarc_missing",
  "dmarc-multiple": "dmarc_multiple_records",
  "dmarc-syntax": "dmarc_invalid",
  "dmarc-inherited": null,
  "dmarc-no-p": null,
  "dmarc-p-none": "dmarc_policy_none",
  "dmarc-sp-none": "dmarc_subdomain_policy_none",
  "dmarc-no-rua": "dmarc_no_rua",
  "dmarc-pct": "dmarc_pct_below_100",
  "dmarc-testing": "dmarc_testing",
  "dmarc-unknown-tag": "dmarc_unknown_tag",
  "dmarc-leading-space": "dmarc_leading_space",
  "dmarc-spf-record": "dmarc_spf_at_dmarc",
  "dmarc-rua-count": "dmarc_too_many_rua",
  "dmarc-rua-no-mx": "dmarc_rua_no_mx",
  "dmarc-uri-scheme": "dmarc_non_mailto_uri",
  "dmarc-fo-without-ruf": null,
  "dmarc-ruf": null,
  "dmarc-external-unauthorised": "dmarc_external_rua_unauthorised",
  "dmarc-external-unknown": null
}

/** The catalogue issues of a list of findings (ids the table does not know are left out). */
export const issuesOfFindings = (findings: ReadonlyArray<{ readonly id: string }>): ReadonlyArray<IssueId> =>
  findings.flatMap((f) => {
    const id = findingIssues[f.id]
    return id ? [id] : []
  })
