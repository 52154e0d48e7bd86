/** The email-authentication part of the issue catalogue (`Catalogue.ts` assembles the whole). */
import { e, type Entry } from "./IssueEntry.ts"

export const emailIssues = {
  spf_missing: e(
    "email",
    "high",
    true,
    "No SPF record",
    "Anyone can send mail claiming to come from this domain (RFC 7208)."
  ),
  spf_invalid: e(
    "email",
    "high",
    true,
    "SPF record is invalid",
    "The SPF record gives a permerror (syntax, several records, or a broken include), so receivers ignore it (RFC 7208 4.6)."
  ),
  spf_multiple_records: e(
    "email",
    "high",
    true,
    "Several SPF records",
    "More than one v=spf1 record is a permerror (RFC 7208 4.5)."
  ),
  spf_too_many_lookups: e(
    "email",
    "high",
    true,
    "SPF needs more than 10 DNS lookups",
    "Evaluation stops with permerror after 10 lookups (RFC 7208 4.6.4); flatten includes."
  ),
  spf_too_many_void_lookups: e(
    "email",
    "medium",
    true,
    "SPF has more than 2 void lookups",
    "Terms that point at names without records count as void lookups; more than 2 is a permerror (RFC 7208 4.6.4)."
  ),
  spf_plus_all: e(
    "email",
    "critical",
    true,
    "SPF ends in +all",
    "+all authorises every server on the internet to send as this domain."
  ),
  spf_neutral_all: e(
    "email",
    "medium",
    true,
    "SPF ends in ?all or has no all",
    "A neutral result gives receivers no instruction for unlisted servers."
  ),
  spf_softfail_all: e(
    "email",
    "low",
    true,
    "SPF ends in ~all",
    "~all asks receivers to accept but mark unlisted senders; -all is stronger once DMARC is enforced."
  ),
  spf_lookups_near_limit: e(
    "email",
    "low",
    true,
    "SPF close to the 10-lookup limit",
    "One more include can push evaluation past the limit of RFC 7208 4.6.4."
  ),
  spf_loop: e(
    "email",
    "high",
    false,
    "SPF include loop",
    "An include or redirect leads back to itself: permerror (RFC 7208 4.6.4)."
  ),
  spf_include_broken: e(
    "email",
    "high",
    false,
    "Broken SPF include",
    "An included or redirected domain has no usable SPF record or fails itself (RFC 7208 5.2)."
  ),
  spf_include_pass_all: e(
    "email",
    "high",
    false,
    "An SPF include allows everyone",
    "An included record ends in +all, so the include matches every sender."
  ),
  spf_mx_too_many: e(
    "email",
    "high",
    true,
    "SPF mx with too many addresses",
    "An mx mechanism names more than 10 mail servers: permerror (RFC 7208 4.6.4)."
  ),
  spf_ptr_mechanism: e(
    "email",
    "low",
    true,
    "SPF uses ptr",
    "RFC 7208 5.5: the ptr mechanism SHOULD NOT be used (slow and unreliable)."
  ),
  spf_answer_too_large: e(
    "email",
    "medium",
    true,
    "SPF answer too large",
    "The TXT answer exceeds 512 bytes and may need TCP, which some receivers do not retry (RFC 7208 3.4)."
  ),
  dmarc_missing: e(
    "email",
    "high",
    true,
    "No DMARC record",
    "Without DMARC receivers have no policy for mail that fails SPF and DKIM (RFC 7489)."
  ),
  dmarc_invalid: e(
    "email",
    "medium",
    true,
    "DMARC record has errors",
    "The DMARC record has syntax errors; receivers may ignore it or parts of it (RFC 7489 6.3)."
  ),
  dmarc_multiple_records: e(
    "email",
    "high",
    true,
    "Several DMARC records",
    "More than one DMARC record: receivers apply none (RFC 7489 6.6.3)."
  ),
  dmarc_subdomain_policy_none: e(
    "email",
    "medium",
    true,
    "DMARC leaves subdomains unprotected",
    "sp=none while p enforces: spoofed mail from subdomains is still delivered."
  ),
  dmarc_testing: e(
    "email",
    "low",
    true,
    "DMARC in testing mode",
    "t=y asks receivers not to apply the policy fully (DMARCbis)."
  ),
  dmarc_leading_space: e(
    "email",
    "high",
    true,
    "DMARC record does not begin with v=DMARC1",
    "A TXT record at _dmarc that starts with a space or other text before v=DMARC1 is not a DMARC record (RFC 7489 6.6.3): receivers ignore it."
  ),
  dmarc_spf_at_dmarc: e(
    "email",
    "low",
    false,
    "SPF record published at _dmarc",
    "An SPF record at _dmarc is never read as SPF (RFC 7208 3 puts it at the domain itself); it usually means the records were swapped."
  ),
  dmarc_too_many_rua: e(
    "email",
    "low",
    true,
    "More than two DMARC report addresses",
    "Receivers need only send aggregate reports to the first two rua URIs (RFC 7489 6.2); later ones may get nothing."
  ),
  dmarc_rua_no_mx: e(
    "email",
    "low",
    false,
    "DMARC report address cannot receive mail",
    "The domain of a rua address takes no mail (a null MX, or neither MX nor address), so aggregate reports sent there never arrive."
  ),
  dmarc_unknown_tag: e(
    "email",
    "low",
    true,
    "Unknown DMARC tag",
    "Receivers ignore unknown tags (RFC 7489 6.3); often a typo."
  ),
  dmarc_non_mailto_uri: e(
    "email",
    "low",
    true,
    "DMARC report address not mailto:",
    "Receivers are only required to support mailto: URIs (RFC 7489 6.2)."
  ),
  dmarc_policy_none: e(
    "email",
    "high",
    true,
    "DMARC policy is none",
    "p=none only monitors: spoofed mail is still delivered."
  ),
  dmarc_policy_quarantine: e(
    "email",
    "low",
    true,
    "DMARC policy is quarantine",
    "p=quarantine sends spoofed mail to spam; p=reject refuses it."
  ),
  dmarc_pct_below_100: e(
    "email",
    "medium",
    true,
    "DMARC applies to part of the mail",
    "pct below 100 applies the policy to only part of the failing mail."
  ),
  dmarc_no_rua: e(
    "email",
    "low",
    true,
    "No DMARC aggregate reports",
    "Without rua you receive no reports and cannot see who sends as you."
  ),
  dmarc_external_rua_unauthorised: e(
    "email",
    "low",
    false,
    "External DMARC report address not authorised",
    "The receiving domain has no _report._dmarc record authorising the reports (RFC 7489 7.1)."
  ),
  dkim_not_found: e(
    "email",
    "medium",
    false,
    "No DKIM key found",
    "No DKIM key was found under the selectors we know; DKIM may still exist under another selector."
  ),
  dkim_weak_key: e(
    "email",
    "medium",
    false,
    "Weak DKIM key",
    "An RSA key below 2048 bits is weak (RFC 8301 3.2 requires at least 1024, recommends 2048)."
  ),
  mta_sts_missing: e(
    "email",
    "low",
    false,
    "No MTA-STS",
    "Without MTA-STS senders fall back to plaintext when STARTTLS is stripped (RFC 8461)."
  ),
  mta_sts_testing: e(
    "email",
    "low",
    false,
    "MTA-STS in testing mode",
    "mode=testing reports failures but does not enforce TLS."
  ),
  mta_sts_invalid: e(
    "email",
    "medium",
    false,
    "MTA-STS policy is broken",
    "The _mta-sts record is published but the policy cannot be fetched, is invalid, or does not cover the MX hosts."
  ),
  tls_rpt_missing: e(
    "email",
    "low",
    false,
    "No TLS-RPT record",
    "Without _smtp._tls reports you do not learn of failed TLS deliveries (RFC 8460)."
  ),
  bimi_invalid: e(
    "email",
    "info",
    false,
    "BIMI record has problems",
    "The BIMI logo or its authority evidence cannot be used by mailbox providers."
  )
} satisfies Record<string, Entry>
