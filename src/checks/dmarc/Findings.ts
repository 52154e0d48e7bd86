/**
 * The finding ids the DMARC check emits (`findings[].id` of its result) and the catalogue issue each
 * one is, or a note when the finding is information, not an issue (a lookup that failed is
 * `unknown`, never an issue). `/ai/explain` accepts these ids: an issue's id answers as its
 * catalogue id does, a note answers for itself. `test/score/catalogue.test.ts` fails when the check
 * emits an id not listed. These issues cost no points of their own: the score lists them beside the
 * rules' issues.
 */
import { findingsOf, type FindingNote, type FindingTable } from "../../kernel/Declaration.ts"
import type { DmarcResult } from "./DmarcResult.ts"

/** A tag DMARCbis removes (RFC 9989 removes pct, rf and ri; the check emits `dmarc-removed-<tag>`). */
const removed = (tag: string, instead: string): FindingNote => ({
  title: `DMARC uses the removed ${tag} tag`,
  description: `DMARCbis removes ${tag}: ${instead}. Receivers that follow it ignore the tag.`,
  recommendation: `Remove ${tag} from the record when you next change it; it is harmless only with its default value.`
})

export const findingIssues: FindingTable = {
  "dmarc-lookup-failed": {
    title: "DMARC could not be determined",
    description:
      "The TXT lookup at _dmarc failed (a timeout or a server failure), so whether the domain publishes DMARC is unknown, not missing.",
    recommendation:
      "Check again later; if it persists, make sure every authoritative name server of the domain answers TXT questions."
  },
  "dmarc-missing": "dmarc_missing",
  "dmarc-multiple": "dmarc_multiple_records",
  "dmarc-syntax": "dmarc_invalid",
  "dmarc-inherited": {
    title: "DMARC policy inherited from the organisational domain",
    description:
      "The domain has no _dmarc record of its own; receivers apply the organisational domain's record, with its sp policy (RFC 7489 6.6.3).",
    recommendation:
      "Nothing to do when the organisational domain's sp suits this domain; publish its own record to set a different policy."
  },
  "dmarc-no-p": {
    title: "DMARC record has no p tag",
    description:
      "Receivers following DMARCbis (RFC 9989 4.7) read a record without p as p=none; older ones (RFC 7489 6.3) may ignore the record.",
    recommendation: "Publish p explicitly: p=none while you monitor, then quarantine or reject."
  },
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
  "dmarc-fo-without-ruf": {
    title: "DMARC fo without ruf",
    description:
      "fo chooses when failure reports are sent; without a ruf destination no report is sent, so it has no effect.",
    recommendation: "Remove fo, or add a ruf destination if you want failure reports."
  },
  "dmarc-ruf": {
    title: "DMARC asks for failure reports",
    description:
      "Failure reports (ruf) can contain personal data from the failing messages, and few mailbox providers send them.",
    recommendation:
      "Keep ruf only if you process such data lawfully; aggregate reports (rua) are what most receivers send."
  },
  "dmarc-external-unauthorised": "dmarc_external_rua_unauthorised",
  "dmarc-external-unknown": {
    title: "External DMARC report destination not verified",
    description:
      "The authorisation record of an external report destination (<domain>._report._dmarc.<destination>, RFC 7489 7.1) could not be looked up, so whether receivers will send it reports is unknown.",
    recommendation: "Check again later; if it persists, ask the destination's owner whether its DNS answers."
  },
  "dmarc-removed-pct": removed("pct", "t=y replaces it for testing"),
  "dmarc-removed-rf": removed("rf", "only the AFRF failure-report format exists"),
  "dmarc-removed-ri": removed("ri", "aggregate reports are sent daily regardless")
}

export const findings = (result: DmarcResult): ReadonlyArray<string> =>
  findingsOf(findingIssues, result.findings)
