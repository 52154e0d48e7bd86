/**
 * The issues the SPF check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  spf_missing: e(
    "email",
    "high",
    true,
    "No SPF record",
    "Anyone can send mail claiming to come from this domain (RFC 7208).",
    nl("Geen SPF-record", "Iedereen kan mail versturen die zegt van dit domein te komen (RFC 7208).")
  ),
  spf_invalid: e(
    "email",
    "high",
    true,
    "SPF record is invalid",
    "The SPF record gives a permerror (syntax, several records, or a broken include), so receivers ignore it (RFC 7208 4.6).",
    nl(
      "SPF-record is ongeldig",
      "Het SPF-record geeft een permerror (syntaxis, meerdere records of een kapotte include), dus ontvangers negeren het (RFC 7208 4.6)."
    )
  ),
  spf_multiple_records: e(
    "email",
    "high",
    true,
    "Several SPF records",
    "More than one v=spf1 record is a permerror (RFC 7208 4.5).",
    nl("Meerdere SPF-records", "Meer dan één v=spf1-record is een permerror (RFC 7208 4.5).")
  ),
  spf_too_many_lookups: e(
    "email",
    "high",
    true,
    "SPF needs more than 10 DNS lookups",
    "Evaluation stops with permerror after 10 lookups (RFC 7208 4.6.4); flatten includes.",
    nl(
      "SPF heeft meer dan 10 DNS-opvragingen nodig",
      "De evaluatie stopt met een permerror na 10 opvragingen (RFC 7208 4.6.4); maak includes plat."
    )
  ),
  spf_too_many_void_lookups: e(
    "email",
    "medium",
    true,
    "SPF has more than 2 void lookups",
    "Terms that point at names without records count as void lookups; more than 2 is a permerror (RFC 7208 4.6.4).",
    nl(
      "SPF heeft meer dan 2 lege opvragingen",
      "Termen die naar namen zonder records wijzen tellen als lege opvragingen; meer dan 2 is een permerror (RFC 7208 4.6.4)."
    )
  ),
  spf_plus_all: e(
    "email",
    "critical",
    true,
    "SPF ends in +all",
    "The +all term authorises every server on the internet to send as this domain.",
    nl("SPF eindigt op +all", "+all staat elke server op internet toe om namens dit domein te versturen.")
  ),
  spf_neutral_all: e(
    "email",
    "medium",
    true,
    "SPF ends in ?all or has no all",
    "A neutral result gives receivers no instruction for unlisted servers.",
    nl(
      "SPF eindigt op ?all of heeft geen all",
      "Een neutraal resultaat geeft ontvangers geen instructie voor niet-vermelde servers."
    )
  ),
  spf_softfail_all: e(
    "email",
    "low",
    true,
    "SPF ends in ~all",
    "The ~all term asks receivers to accept but mark unlisted senders; -all is stronger once DMARC is enforced.",
    nl(
      "SPF eindigt op ~all",
      "~all vraagt ontvangers niet-vermelde afzenders te accepteren maar te markeren; -all is sterker zodra DMARC wordt afgedwongen."
    )
  ),
  spf_lookups_near_limit: e(
    "email",
    "low",
    true,
    "SPF close to the 10-lookup limit",
    "One more include can push evaluation past the limit of RFC 7208 4.6.4.",
    nl(
      "SPF dicht bij de grens van 10 opvragingen",
      "Eén include meer kan de evaluatie over de grens van RFC 7208 4.6.4 duwen."
    )
  ),
  spf_loop: e(
    "email",
    "high",
    false,
    "SPF include loop",
    "An include or redirect leads back to itself: permerror (RFC 7208 4.6.4).",
    nl("SPF-include-lus", "Een include of redirect leidt terug naar zichzelf: permerror (RFC 7208 4.6.4).")
  ),
  spf_include_broken: e(
    "email",
    "high",
    false,
    "Broken SPF include",
    "An included or redirected domain has no usable SPF record or fails itself (RFC 7208 5.2).",
    nl(
      "Kapotte SPF-include",
      "Een geïncludeerd of doorverwezen domein heeft geen bruikbaar SPF-record of faalt zelf (RFC 7208 5.2)."
    )
  ),
  spf_include_pass_all: e(
    "email",
    "high",
    false,
    "An SPF include allows everyone",
    "An included record ends in +all, so the include matches every sender.",
    nl(
      "Een SPF-include staat iedereen toe",
      "Een geïncludeerd record eindigt op +all, dus de include past op elke afzender."
    )
  ),
  spf_mx_too_many: e(
    "email",
    "high",
    true,
    "SPF mx with too many addresses",
    "An mx mechanism names more than 10 mail servers: permerror (RFC 7208 4.6.4).",
    nl(
      "SPF-mx met te veel adressen",
      "Een mx-mechanisme noemt meer dan 10 mailservers: permerror (RFC 7208 4.6.4)."
    )
  ),
  spf_ptr_mechanism: e(
    "email",
    "low",
    true,
    "SPF uses ptr",
    "RFC 7208 5.5: the ptr mechanism SHOULD NOT be used (slow and unreliable).",
    nl(
      "SPF gebruikt ptr",
      "RFC 7208 5.5: het ptr-mechanisme zou niet gebruikt moeten worden (traag en onbetrouwbaar)."
    )
  ),
  spf_answer_too_large: e(
    "email",
    "medium",
    true,
    "SPF answer too large",
    "The TXT answer exceeds 512 bytes and may need TCP, which some receivers do not retry (RFC 7208 3.4).",
    nl(
      "SPF-antwoord te groot",
      "Het TXT-antwoord is groter dan 512 bytes en kan TCP vereisen, wat sommige ontvangers niet opnieuw proberen (RFC 7208 3.4)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
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
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
