/**
 * The finding ids the SPF check emits (`findings[].id` of its result) and the catalogue issue each
 * one is, or a note when the finding is information, not an issue (a lookup that failed is
 * `unknown`, never an issue). `/ai/explain` accepts these ids: an issue's id answers as its
 * catalogue id does, a note answers for itself. `test/score/catalogue.test.ts` fails when the check
 * emits an id not listed. These issues cost no points of their own: the score lists them beside the
 * rules' issues.
 */
import { findingsOf, type FindingTable } from "../../kernel/Declaration.ts"
import type { SpfResult } from "./SpfResult.ts"

export const findingIssues: FindingTable = {
  "spf-unknown": {
    title: "SPF could not be determined",
    description:
      "The TXT lookup for the domain failed (a timeout or a server failure), so whether it publishes SPF is unknown, not missing.",
    recommendation:
      "Check again later; if it persists, make sure every authoritative name server of the domain answers TXT questions."
  },
  "spf-missing": "spf_missing",
  "spf-multiple": "spf_multiple_records",
  "spf-too-many-lookups": "spf_too_many_lookups",
  "spf-lookups-near-limit": "spf_lookups_near_limit",
  "spf-too-many-void-lookups": "spf_too_many_void_lookups",
  "spf-void-lookup": {
    title: "SPF has void lookups",
    description:
      "Some terms point at names without records. Up to two are allowed; a third makes receivers return permerror (RFC 7208 4.6.4).",
    recommendation: "Remove include, a, mx or exists terms whose targets no longer exist."
  },
  "spf-loop": "spf_loop",
  "spf-dns-unknown": {
    title: "An SPF lookup failed",
    description:
      "A name the record refers to could not be looked up (temperror, RFC 7208 2.6.6): the verdict and the lookup count below it are unknown.",
    recommendation:
      "Check again later; if it persists, the DNS of the included domain does not answer and its owner should fix it."
  },
  "spf-include-pass-all": "spf_include_pass_all",
  "spf-ptr": "spf_ptr_mechanism",
  "spf-graph-truncated": {
    title: "SPF include graph too large to follow",
    description:
      "The record's includes and redirects reach further than this check follows, so the lookup counts shown are a minimum.",
    recommendation:
      "Reduce the nesting of includes; a record that needs this many lookups also passes the limit of 10 (RFC 7208 4.6.4)."
  },
  "spf-softfail": "spf_softfail_all",
  "spf-no-all": "spf_neutral_all",
  "spf-answer-too-large": "spf_answer_too_large",
  "spf-syntax": "spf_invalid",
  "spf-nested-error": "spf_include_broken",
  "spf-include-broken": "spf_include_broken",
  "spf-mx-too-many": "spf_mx_too_many",
  "spf-neutral-all": "spf_neutral_all",
  "spf-pass-all": "spf_plus_all",
  "spf-warning": {
    title: "SPF term worth a look",
    description:
      "A term of the record is valid but unusual or redundant (the message names its position); receivers still evaluate the record.",
    recommendation: "Read the message and simplify the term if it is not intended."
  }
}

export const findings = (result: SpfResult): ReadonlyArray<string> =>
  findingsOf(findingIssues, result.findings)
