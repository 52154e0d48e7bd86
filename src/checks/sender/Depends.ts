/**
 * Which findings each mailbox-provider sender requirement depends on: the catalogue issues of the
 * checks it reads (SPF, DKIM, DMARC, FCrDNS, STARTTLS) whose presence makes the requirement fail.
 * A requirement is thus a view over findings the other checks already report, not a finding of its
 * own: the fix list shows each finding once and says which providers require it. Pure.
 */
import type { SenderRequirementsResult } from "./SenderRequirements.ts"

export const MailboxProviders = ["google", "yahoo", "microsoft"] as const
export type MailboxProvider = (typeof MailboxProviders)[number]

/** The issues behind each requirement (by `RequirementCheck.id`); every id is a catalogue id. */
export const requirementIssues: Readonly<Record<string, ReadonlyArray<string>>> = {
  // RFC 7208 4.5, 4.6: a missing or permerror record authorises nothing.
  spf: [
    "spf_missing",
    "spf_invalid",
    "spf_multiple_records",
    "spf_too_many_lookups",
    "spf_too_many_void_lookups",
    "spf_loop",
    "spf_include_broken",
    "spf_mx_too_many"
  ],
  dkim: ["dkim_weak_key"],
  // RFC 7489 6.6.3: no record, or none that parses, means no DMARC policy at all.
  dmarc: ["dmarc_missing", "dmarc_invalid", "dmarc_multiple_records"],
  // RFC 7489 3.1: alignment needs an SPF or DKIM identity in the From domain.
  "dmarc-alignment": ["spf_missing", "spf_invalid"],
  fcrdns: ["ptr_missing", "fcrdns_mismatch"],
  tls: ["starttls_missing"]
}

const REQUIRED_FLAG: Record<MailboxProvider, "googleRequired" | "yahooRequired" | "microsoftRequired"> = {
  google: "googleRequired",
  yahoo: "yahooRequired",
  microsoft: "microsoftRequired"
}

/**
 * For each issue a failing (or warning) requirement depends on, the providers that require it, in
 * `MailboxProviders` order. A domain that sends no mail has no requirement to meet.
 */
export const providersRequiring = (
  result: SenderRequirementsResult
): ReadonlyMap<string, ReadonlyArray<MailboxProvider>> => {
  const out = new Map<string, Set<MailboxProvider>>()
  if (result.overallStatus === "not-applicable") return new Map()
  for (const rule of result.checks) {
    if (rule.status !== "fail" && rule.status !== "warning") continue
    // Own keys only: a requirement id is data, and "valueOf" must not read Object.prototype's.
    for (const issue of Object.hasOwn(requirementIssues, rule.id) ? requirementIssues[rule.id]! : [])
      for (const provider of MailboxProviders)
        if (rule[REQUIRED_FLAG[provider]]) out.set(issue, (out.get(issue) ?? new Set()).add(provider))
  }
  return new Map([...out].map(([issue, set]) => [issue, MailboxProviders.filter((p) => set.has(p))] as const))
}
