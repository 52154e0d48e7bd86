/**
 * What a domain owner does about each DMARC issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). DMARC is one TXT record at `_dmarc.<domain>`. Moving to enforcement is staged
 * (RFC 7489 6.7, DMARCbis): reports first, to a mailbox that can receive them, then quarantine,
 * then reject, so that legitimate mail that fails is found before it is refused.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /email/dmarc/generate"

/** The staged rollout, shared by every guidance that ends in an enforcing policy. */
const STAGES = [
  "Make sure the report address (rua) is a mailbox in a domain that receives mail, or a DMARC report service; reports sent to a domain without mail servers never arrive.",
  "Read the aggregate reports for two to four weeks and make every service that sends as you pass SPF or DKIM with your domain (see the provider notes).",
  "Change p=none to p=quarantine and keep reading reports for another two to four weeks.",
  "Change p=quarantine to p=reject once the reports show no legitimate mail failing."
]

/** Where each provider makes its mail pass DMARC: DKIM signing with the domain's own key. */
const ALIGN = {
  "google-workspace":
    "Turn on DKIM signing in the Admin console (Apps > Google Workspace > Gmail > Authenticate email) so Gmail's mail passes DMARC with your domain.",
  "microsoft-365":
    "Turn on DKIM signing for the domain in the Microsoft Defender portal (Email & collaboration > Policies > Email authentication settings > DKIM) after publishing its two selector CNAMEs.",
  "route53-ses":
    "Verify the domain in SES with Easy DKIM (three CNAME records) and set a custom MAIL FROM subdomain, so SES mail aligns on DKIM and SPF.",
  cloudflare:
    "Cloudflare's DMARC Management (Email > DMARC Management) receives and summarises aggregate reports for you."
} as const

export const guidance = {
  dmarc_missing: guide({
    why: "Without DMARC anyone can send mail with your domain in the From line and receivers have no instruction to stop it. Gmail and Yahoo require a DMARC record from bulk senders, and you get no reports about who uses your name.",
    steps: [
      "Choose a mailbox to receive DMARC reports, in a domain that receives mail (for example dmarc-reports@{domain}), or a DMARC report service.",
      "Publish a TXT record at _dmarc.{domain} with p=none and that address as rua.",
      ...STAGES.slice(1)
    ],
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis", "google_senders", "yahoo_senders"]
  }),
  dmarc_invalid: guide({
    why: "The DMARC record contains errors, so receivers may ignore it or the broken parts: the policy you meant may not apply.",
    steps: [
      "Read the errors the report lists for the DMARC record.",
      "Correct them: tags are name=value pairs separated by semicolons, starting with v=DMARC1; then p.",
      "Publish the corrected record at _dmarc.{domain} and scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_multiple_records: guide({
    why: "There is more than one DMARC record. Receivers then apply none of them, as if you had no DMARC at all.",
    steps: [
      "List the TXT records at _dmarc.{domain}.",
      "Keep the one with the policy you want (merge the report addresses into it) and delete the others."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_subdomain_policy_none: guide({
    why: "The record protects the domain but tells receivers to let through forged mail from its subdomains (such as billing.{domain}), which attackers use for exactly that reason.",
    steps: [
      "Check whether any subdomain sends mail; if it does, make it pass SPF or DKIM as the main domain does.",
      "Remove sp=none from the record so subdomains follow p, or set sp=quarantine or sp=reject."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_testing: guide({
    why: "The record has t=y (testing), which asks receivers to apply a weaker policy than the one it states.",
    steps: ["Check in the aggregate reports that legitimate mail passes.", "Remove t=y from the record."],
    generator: GENERATOR,
    references: ["dmarcbis"]
  }),
  dmarc_leading_space: guide({
    why: "The record at _dmarc does not begin with v=DMARC1 (a space or other text comes first), so receivers do not recognise it: the domain is unprotected.",
    steps: [
      "Edit the TXT record at _dmarc.{domain} so that its value begins exactly with v=DMARC1; with nothing before it.",
      "Some DNS panels add quotes themselves: do not type extra quotes or spaces."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_spf_at_dmarc: guide({
    why: "An SPF record is published at _dmarc, where it is never read. It usually means the SPF and DMARC records were swapped, and the domain's own SPF may be missing.",
    steps: [
      "Move the v=spf1 record to the domain itself (host @).",
      "Keep only the v=DMARC1 record at _dmarc.{domain}."
    ],
    references: ["rfc7208", "rfc7489"]
  }),
  dmarc_too_many_rua: guide({
    why: "Receivers need only send aggregate reports to the first two report addresses; the others may receive nothing.",
    steps: [
      "Keep at most two rua addresses.",
      "Forward reports within your organisation if more people need them."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_rua_no_mx: guide({
    why: "The DMARC report address is in a domain that receives no mail, so the reports that show who sends as you never arrive, and moving to an enforcing policy becomes guesswork.",
    steps: [
      "Choose a report address in a domain that has mail servers (MX records), for example in {domain} itself, or a DMARC report service.",
      "Replace the rua address in the record with it.",
      "Wait a day and check that reports arrive before changing the policy."
    ],
    references: ["rfc7489"]
  }),
  dmarc_unknown_tag: guide({
    why: "The record contains a tag DMARC does not define. It has no effect, and if it is a typo, the setting you wanted is not applied.",
    steps: [
      "Find the unknown tag in the report.",
      "Correct its name (the tags are v, p, sp, np, rua, ruf, adkim, aspf, pct, fo, rf, ri, t) or remove it."
    ],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_non_mailto_uri: guide({
    why: "A report address is not a mailto: address. Receivers only need to support mailto:, so reports there are usually not sent.",
    steps: ["Write every rua and ruf address as mailto:name@domain."],
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_policy_none: guide({
    why: "The policy p=none only collects reports: mail that fails DMARC, forged mail in your name included, is delivered as usual. It is the right first stage, not a place to stay.",
    steps: STAGES,
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis"]
  }),
  dmarc_policy_quarantine: guide({
    why: "The policy p=quarantine sends forged mail to the spam folder, where some recipients still find and trust it; p=reject refuses it outright.",
    steps: [
      "Check in the aggregate reports of the last weeks that no legitimate mail fails DMARC.",
      "Change p=quarantine to p=reject.",
      "Keep reading the reports: a new sending service must be set up to pass before it goes live."
    ],
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=reject; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_pct_below_100: guide({
    why: "A pct below 100 applies the policy to only part of the failing mail; the rest, forged mail included, is treated as under p=none.",
    steps: [
      "Raise pct step by step (for example 25, 50, 100) while the reports show no legitimate mail failing.",
      "Finally remove pct: 100 is the default, and the revised DMARC standard drops the tag."
    ],
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis"]
  }),
  dmarc_no_rua: guide({
    why: "Without a report address you receive no aggregate reports, so you cannot see which servers send as you, and moving to an enforcing policy risks blocking your own mail unnoticed.",
    steps: [
      "Choose a mailbox in a domain that receives mail (for example dmarc-reports@{domain}), or a DMARC report service.",
      "Add rua=mailto:<that address> to the record.",
      "Check a day later that reports arrive."
    ],
    providers: {
      cloudflare:
        "Email > DMARC Management adds a Cloudflare report address to the record and shows the reports in the dashboard."
    },
    record: '_dmarc.{domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489"]
  }),
  dmarc_external_rua_unauthorised: guide({
    why: "Reports go to an address in another domain that has not declared it accepts them, so receivers drop them and you see nothing.",
    steps: [
      "Ask the owner of the report address's domain (often a report service) to publish the authorisation record for your domain.",
      "Or use a report address in your own domain."
    ],
    record: '{domain}._report._dmarc.<report domain> TXT "v=DMARC1"',
    references: ["rfc7489"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
