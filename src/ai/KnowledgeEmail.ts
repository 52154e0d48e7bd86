/**
 * The email-authentication part of the knowledge base (`Knowledge.ts` assembles the whole). Each
 * entry adds to the catalogue entry of the same id (whose title, severity and description it does
 * not repeat): why it matters in practice (`impact`) and what to do (`recommendation`).
 */
import type { Advice } from "./KnowledgeEntry.ts"

export const emailAdvice = {
  spf_missing: {
    impact:
      "Receivers cannot tell your servers from a forger's; Gmail and Yahoo require SPF or DKIM from every sender and reject or junk unauthenticated bulk mail.",
    recommendation:
      "Publish one TXT record at the domain listing every server and provider that sends for it, ending in ~all while you verify and -all after. POST /ai/fix builds it from your MX and current records."
  },
  spf_invalid: {
    impact:
      "A permerror makes receivers treat the SPF result as failed or absent: legitimate mail loses SPF and, without aligned DKIM, fails DMARC.",
    recommendation:
      "Fix the syntax errors reported by GET /email/spf (positions are given) or regenerate the record with /email/spf/generate; keep a single v=spf1 record."
  },
  spf_multiple_records: {
    impact: "Every receiver returns permerror, so SPF protects nothing until only one record remains.",
    recommendation:
      "Merge the mechanisms of all v=spf1 records into one record and delete the others; /ai/fix proposes the merged record."
  },
  spf_too_many_lookups: {
    impact:
      "Receivers stop at the 11th lookup and return permerror: mail from every sender fails SPF, often only at large receivers that evaluate strictly.",
    recommendation:
      "Remove includes of services you no longer use, replace a and mx with ip4/ip6 where stable, or flatten nested includes into addresses (the SPF result's `flattened` shows the equivalent)."
  },
  spf_too_many_void_lookups: {
    impact: "After two names that answer nothing, receivers return permerror and ignore the whole record.",
    recommendation:
      "Remove the a, mx, include or exists terms that point at names without records (GET /email/spf lists them in the lookup graph)."
  },
  spf_plus_all: {
    detail: "Any host on the internet then passes SPF for your domain, which defeats the record entirely.",
    impact:
      "Spammers pass SPF as you; with a relaxed DMARC alignment their mail can even pass DMARC and land in inboxes under your name.",
    recommendation:
      "Replace +all with ~all now and -all once every legitimate sender is listed; list your senders explicitly."
  },
  spf_neutral_all: {
    impact: "Receivers treat unlisted senders as if there were no SPF: forged mail is not penalised by SPF.",
    recommendation: "End the record with ~all (softfail) or, once every sender is listed, -all."
  },
  spf_softfail_all: {
    impact:
      "Small on its own: DMARC decides what happens to failing mail. Without an enforcing DMARC policy some receivers still deliver softfailed mail.",
    recommendation:
      "When DMARC reports show every legitimate source passing, change ~all to -all (or rely on an enforcing DMARC policy)."
  },
  spf_lookups_near_limit: {
    impact:
      "Adding one more service, or a provider adding a lookup to its own include, pushes the record over 10 lookups and into permerror without any change on your side.",
    recommendation:
      "Drop unused includes and replace stable a/mx terms with ip4/ip6 to leave headroom below 10 lookups."
  },
  spf_loop: {
    impact: "Evaluation ends in permerror: SPF fails for all mail of the domain.",
    recommendation:
      "Remove the include or redirect that points back into the chain (GET /email/spf shows the loop in the lookup graph)."
  },
  spf_include_broken: {
    impact:
      "An include that returns no record or an error makes the whole evaluation permerror or temperror, so your own mail fails SPF.",
    recommendation:
      "Correct the include's domain (often a typo or a provider you left), or remove it if the service no longer sends for you."
  },
  spf_include_pass_all: {
    impact: "The include matches every address, so your record authorises the whole internet as +all would.",
    recommendation:
      "Remove that include or ask its owner to fix their record; never include a domain whose record ends in +all."
  },
  spf_mx_too_many: {
    impact: "Receivers return permerror when an mx mechanism resolves to more than 10 hosts.",
    recommendation: "Replace the mx mechanism with the ip4/ip6 ranges of the hosts that actually send mail."
  },
  spf_ptr_mechanism: {
    impact:
      "ptr costs several DNS lookups per evaluation and is unreliable; some receivers skip it, so the senders it covers may fail.",
    recommendation: "Replace ptr with ip4/ip6 or a mechanisms naming the sending hosts."
  },
  spf_answer_too_large: {
    impact:
      "Receivers whose resolvers do not retry over TCP cannot read the record and return temperror for your mail.",
    recommendation:
      "Shorten the record: merge ip4 ranges into CIDR blocks, move groups of addresses behind an include, and remove unused TXT records at the apex."
  },
  dmarc_missing: {
    impact:
      "Anyone can send mail with your domain in the visible From; Gmail and Yahoo require a DMARC record from bulk senders and you receive no reports about abuse.",
    recommendation:
      "Publish a TXT record at _dmarc with p=none and a rua address to learn who sends as you, then move to p=quarantine and p=reject."
  },
  dmarc_invalid: {
    impact: "Receivers may discard the record or the broken tags, so the policy you meant may not apply.",
    recommendation:
      "Correct the tags GET /email/dmarc reports, or regenerate the record with /email/dmarc/generate; /ai/fix keeps your valid tags."
  },
  dmarc_multiple_records: {
    impact: "With more than one record receivers apply no DMARC policy at all.",
    recommendation: "Keep exactly one v=DMARC1 record at _dmarc and delete the others."
  },
  dmarc_subdomain_policy_none: {
    impact:
      "Attackers send from invented subdomains (billing.yourdomain) that pass no check and still get delivered.",
    recommendation: "Set sp to quarantine or reject, or remove sp so subdomains inherit p."
  },
  dmarc_testing: {
    impact: "Receivers may apply a weaker policy than p asks for (quarantine instead of reject).",
    recommendation: "Remove t=y once reports show legitimate mail passing."
  },
  dmarc_leading_space: {
    impact: "Receivers find no DMARC record, so the domain is as unprotected as with none at all.",
    recommendation: "Republish the value so that it begins exactly with v=DMARC1 (no leading space or text)."
  },
  dmarc_spf_at_dmarc: {
    impact: "The SPF meant for the domain is not where receivers look; the domain's own SPF may be missing.",
    recommendation: "Move the v=spf1 record to the domain itself and keep only the v=DMARC1 record at _dmarc."
  },
  dmarc_too_many_rua: {
    impact: "Destinations after the second may never receive aggregate reports.",
    recommendation: "Keep at most two rua addresses; forward reports internally if more people need them."
  },
  dmarc_rua_no_mx: {
    impact: "Aggregate reports cannot be delivered, so you do not see who sends as you.",
    recommendation:
      "Use a rua address in a domain that receives mail (has MX records), or add MX records to it."
  },
  dmarc_unknown_tag: {
    impact: "The tag has no effect; if it was a typo of a real tag, the setting you wanted is not applied.",
    recommendation: "Remove the tag or correct its name (for example rua, ruf, sp, adkim, aspf)."
  },
  dmarc_non_mailto_uri: {
    impact: "Receivers need only support mailto:, so reports to other URI schemes are usually not sent.",
    recommendation: "Use mailto: addresses in rua and ruf."
  },
  dmarc_policy_none: {
    impact:
      "Mail that fails DMARC, including spoofed mail in your name, is delivered as usual; you only get reports.",
    recommendation:
      "After reviewing aggregate reports and fixing legitimate senders, move to p=quarantine, then to p=reject."
  },
  dmarc_policy_quarantine: {
    impact: "Spoofed mail still reaches recipients' spam folders, where some users find and trust it.",
    recommendation: "Move to p=reject once reports show no legitimate mail failing."
  },
  dmarc_pct_below_100: {
    impact: "The remaining share of failing mail, forged mail included, is treated as under p=none.",
    recommendation: "Raise pct step by step to 100, or remove pct (DMARCbis drops it; 100 is the default)."
  },
  dmarc_no_rua: {
    impact:
      "You cannot see which servers send as you, so moving to an enforcing policy risks blocking legitimate mail unnoticed.",
    recommendation:
      "Add rua=mailto: with an address (or a report-processing service) that receives aggregate reports."
  },
  dmarc_external_rua_unauthorised: {
    impact: "Receivers drop reports to a destination that has not authorised them, so you see nothing.",
    recommendation:
      "Ask the report destination to publish a TXT record v=DMARC1 at <your domain>._report._dmarc.<their domain>, or use an address in your own domain."
  },
  dkim_not_found: {
    impact:
      "Without DKIM, DMARC rests on SPF alone, which breaks on forwarding; Gmail and Yahoo expect DKIM from bulk senders.",
    recommendation:
      "Enable DKIM signing at every sending service and publish their keys (selector._domainkey); if you sign under an unusual selector, query GET /email/dkim?selector=."
  },
  dkim_weak_key: {
    impact:
      "Keys below 2048 bits can be factored with affordable resources, letting others sign mail as you.",
    recommendation:
      "Generate a 2048-bit RSA (or Ed25519 alongside RSA) key under a new selector, switch signing, then revoke the old key (p=)."
  },
  mta_sts_missing: {
    impact:
      "An attacker on the path can strip STARTTLS and read or alter mail sent to you; senders will not notice.",
    recommendation:
      "Publish _mta-sts TXT (v=STSv1; id=...) and a policy at https://mta-sts.<domain>/.well-known/mta-sts.txt listing your MX hosts, first in mode testing, then enforce."
  },
  mta_sts_testing: {
    impact: "Failures are reported but mail is still delivered without TLS when STARTTLS is stripped.",
    recommendation: "Switch the policy to mode: enforce once TLS-RPT reports show no failures."
  },
  mta_sts_invalid: {
    impact:
      "Senders cannot apply the policy; with enforce and MX hosts not covered, senders may refuse to deliver to you.",
    recommendation:
      "Serve the policy over HTTPS with a valid certificate at mta-sts.<domain>, list every MX host, and change the id in the TXT record after each edit."
  },
  tls_rpt_missing: {
    impact: "TLS delivery failures to your servers (expired certificate, MTA-STS mismatch) stay invisible.",
    recommendation: 'Publish _smtp._tls TXT "v=TLSRPTv1; rua=mailto:tls-reports@<domain>".'
  },
  bimi_invalid: {
    impact: "Mailbox providers do not show your logo; nothing else about delivery changes.",
    recommendation:
      "Fix the points GET /email/bimi lists: an SVG Tiny PS logo over HTTPS, an enforcing DMARC policy, and a VMC or CMC where the provider requires one."
  }
} satisfies Record<string, Advice>
