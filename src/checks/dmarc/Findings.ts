/**
 * The finding ids the DMARC check emits (`findings[].id` of its result) and the catalogue issue each
 * one is; `null` marks a finding that is information, not an issue (a lookup that failed is
 * `unknown`, never an issue). `test/score/catalogue.test.ts` fails when the check emits an id not
 * listed. These issues cost no points of their own: the score lists them beside the rules' issues.
 */
import { findingsOf } from "../Declaration.ts"
import type { DmarcResult } from "./Dmarc.ts"

export const findingIssues: Readonly<Record<string, string | null>> = {
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

export const findings = (result: DmarcResult): ReadonlyArray<string> =>
  findingsOf(findingIssues, result.findings)
