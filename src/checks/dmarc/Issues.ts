/**
 * The issues the DMARC check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  dmarc_missing: e(
    "email",
    "high",
    true,
    "No DMARC record",
    "Without DMARC receivers have no policy for mail that fails SPF and DKIM (RFC 7489).",
    nl(
      "Geen DMARC-record",
      "Zonder DMARC hebben ontvangers geen beleid voor mail die niet slaagt voor SPF en DKIM (RFC 7489)."
    )
  ),
  dmarc_invalid: e(
    "email",
    "medium",
    true,
    "DMARC record has errors",
    "The DMARC record has syntax errors; receivers may ignore it or parts of it (RFC 7489 6.3).",
    nl(
      "DMARC-record bevat fouten",
      "Het DMARC-record heeft syntaxisfouten; ontvangers kunnen het geheel of gedeeltelijk negeren (RFC 7489 6.3)."
    )
  ),
  dmarc_multiple_records: e(
    "email",
    "high",
    true,
    "Several DMARC records",
    "More than one DMARC record: receivers apply none (RFC 7489 6.6.3).",
    nl("Meerdere DMARC-records", "Meer dan één DMARC-record: ontvangers passen er geen toe (RFC 7489 6.6.3).")
  ),
  dmarc_subdomain_policy_none: e(
    "email",
    "medium",
    true,
    "DMARC leaves subdomains unprotected",
    "The tag sp=none, while p enforces: spoofed mail from subdomains is still delivered.",
    nl(
      "DMARC laat subdomeinen onbeschermd",
      "sp=none terwijl p afdwingt: vervalste mail van subdomeinen wordt nog steeds afgeleverd."
    )
  ),
  dmarc_testing: e(
    "email",
    "low",
    true,
    "DMARC in testing mode",
    "The tag t=y asks receivers not to apply the policy fully (DMARCbis).",
    nl("DMARC in testmodus", "t=y vraagt ontvangers het beleid niet volledig toe te passen (DMARCbis).")
  ),
  dmarc_leading_space: e(
    "email",
    "high",
    true,
    "DMARC record does not begin with v=DMARC1",
    "A TXT record at _dmarc that starts with a space or other text before v=DMARC1 is not a DMARC record (RFC 7489 6.6.3): receivers ignore it.",
    nl(
      "DMARC-record begint niet met v=DMARC1",
      "Een TXT-record op _dmarc dat met een spatie of andere tekst vóór v=DMARC1 begint, is geen DMARC-record (RFC 7489 6.6.3): ontvangers negeren het."
    )
  ),
  dmarc_spf_at_dmarc: e(
    "email",
    "low",
    false,
    "SPF record published at _dmarc",
    "An SPF record at _dmarc is never read as SPF (RFC 7208 3 puts it at the domain itself); it usually means the records were swapped.",
    nl(
      "SPF-record gepubliceerd op _dmarc",
      "Een SPF-record op _dmarc wordt nooit als SPF gelezen (RFC 7208 3 plaatst het op het domein zelf); meestal zijn de records verwisseld."
    )
  ),
  dmarc_too_many_rua: e(
    "email",
    "low",
    true,
    "More than two DMARC report addresses",
    "Receivers need only send aggregate reports to the first two rua URIs (RFC 7489 6.2); later ones may get nothing.",
    nl(
      "Meer dan twee DMARC-rapportadressen",
      "Ontvangers hoeven verzamelrapporten alleen naar de eerste twee rua-URI's te sturen (RFC 7489 6.2); latere krijgen mogelijk niets."
    )
  ),
  dmarc_rua_no_mx: e(
    "email",
    "low",
    false,
    "DMARC report address cannot receive mail",
    "The domain of a rua address takes no mail (a null MX, or neither MX nor address), so aggregate reports sent there never arrive.",
    nl(
      "DMARC-rapportadres kan geen mail ontvangen",
      "Het domein van een rua-adres ontvangt geen mail (een null-MX, of MX noch adres), dus verzamelrapporten komen daar nooit aan."
    )
  ),
  dmarc_unknown_tag: e(
    "email",
    "low",
    true,
    "Unknown DMARC tag",
    "Receivers ignore unknown tags (RFC 7489 6.3); often a typo.",
    nl("Onbekende DMARC-tag", "Ontvangers negeren onbekende tags (RFC 7489 6.3); vaak een tikfout.")
  ),
  dmarc_non_mailto_uri: e(
    "email",
    "low",
    true,
    "DMARC report address not mailto:",
    "Receivers are only required to support mailto: URIs (RFC 7489 6.2).",
    nl(
      "DMARC-rapportadres is geen mailto:",
      "Ontvangers hoeven alleen mailto:-URI's te ondersteunen (RFC 7489 6.2)."
    )
  ),
  dmarc_policy_none: e(
    "email",
    "high",
    true,
    "DMARC policy is none",
    "The policy p=none only monitors: spoofed mail is still delivered.",
    nl("DMARC-beleid is none", "p=none monitort alleen: vervalste mail wordt nog steeds afgeleverd.")
  ),
  dmarc_policy_quarantine: e(
    "email",
    "low",
    true,
    "DMARC policy is quarantine",
    "The policy p=quarantine sends spoofed mail to spam; p=reject refuses it.",
    nl(
      "DMARC-beleid is quarantine",
      "p=quarantine stuurt vervalste mail naar de spammap; p=reject weigert die."
    )
  ),
  dmarc_pct_below_100: e(
    "email",
    "medium",
    true,
    "DMARC applies to part of the mail",
    "A pct below 100 applies the policy to only part of the failing mail.",
    nl(
      "DMARC geldt voor een deel van de mail",
      "pct onder 100 past het beleid toe op slechts een deel van de falende mail."
    )
  ),
  dmarc_no_rua: e(
    "email",
    "low",
    true,
    "No DMARC aggregate reports",
    "Without rua you receive no reports and cannot see who sends as you.",
    nl(
      "Geen DMARC-verzamelrapporten",
      "Zonder rua ontvang je geen rapporten en zie je niet wie namens jou verstuurt."
    )
  ),
  dmarc_external_rua_unauthorised: e(
    "email",
    "low",
    false,
    "External DMARC report address not authorised",
    "The receiving domain has no _report._dmarc record authorising the reports (RFC 7489 7.1).",
    nl(
      "Extern DMARC-rapportadres niet gemachtigd",
      "Het ontvangende domein heeft geen _report._dmarc-record dat de rapporten toestaat (RFC 7489 7.1)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
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
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
