/**
 * The issues the DNS records check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  dns_no_such_domain: e(
    "dns",
    "critical",
    false,
    "Domain does not exist",
    "The domain's name servers answer NXDOMAIN: every DNS-based check fails.",
    nl(
      "Domein bestaat niet",
      "De nameservers van het domein antwoorden NXDOMAIN: elke controle op basis van DNS faalt."
    )
  ),
  ns_single: e(
    "dns",
    "medium",
    false,
    "Fewer than two name servers",
    "RFC 1034 4.1 and RFC 2182 ask for at least two name servers so one outage does not take the domain offline.",
    nl(
      "Minder dan twee nameservers",
      "RFC 1034 4.1 en RFC 2182 vragen om minstens twee nameservers, zodat één storing het domein niet onbereikbaar maakt."
    )
  ),
  soa_missing: e(
    "dns",
    "medium",
    false,
    "No SOA record",
    "The zone apex answers no SOA record (RFC 1035 3.3.13).",
    nl("Geen SOA-record", "De top van de zone geeft geen SOA-record (RFC 1035 3.3.13).")
  ),
  mx_unresolvable: e(
    "dns",
    "high",
    false,
    "Mail server names do not resolve",
    "An MX target has no A or AAAA address, so mail to it cannot be delivered (RFC 5321 5.1).",
    nl(
      "Namen van mailservers zijn niet vindbaar",
      "Een MX-doel heeft geen A- of AAAA-adres, dus mail daarheen kan niet worden afgeleverd (RFC 5321 5.1)."
    )
  ),
  null_mx_missing: e(
    "dns",
    "low",
    false,
    "No MX and no null MX",
    "The domain has no MX record, so senders deliver to its own address (RFC 5321 5.1), where no mail server answers; a null MX (RFC 7505) says it receives no mail.",
    nl(
      "Geen MX en geen null MX",
      "Het domein heeft geen MX-record, dus afzenders bezorgen op het eigen adres (RFC 5321 5.1), waar geen mailserver antwoordt; een null MX (RFC 7505) zegt dat het geen mail ontvangt."
    )
  ),
  caa_missing: e(
    "dns",
    "low",
    false,
    "No CAA record",
    "Without CAA any certificate authority may issue certificates for the domain (RFC 8659).",
    nl(
      "Geen CAA-record",
      "Zonder CAA mag elke certificaatautoriteit certificaten voor het domein uitgeven (RFC 8659)."
    )
  ),
  ipv6_mx_missing: e(
    "ipv6",
    "low",
    false,
    "Mail servers without IPv6",
    "No mail server has an AAAA address.",
    nl("Mailservers zonder IPv6", "Geen enkele mailserver heeft een AAAA-adres.")
  ),
  ipv6_web_missing: e(
    "ipv6",
    "low",
    false,
    "Web site without IPv6",
    "The domain has no AAAA record.",
    nl("Website zonder IPv6", "Het domein heeft geen AAAA-record.")
  )
} satisfies Record<string, Entry>

export const advice = {
  dns_no_such_domain: {
    impact: "Mail to the domain bounces, its web site is unreachable and every other check is meaningless.",
    recommendation:
      "Check the registration and delegation at your registrar (the NS records at the parent zone) and that the name servers serve the zone."
  },
  ns_single: {
    impact: "One server outage or network problem makes the whole domain, mail included, unresolvable.",
    recommendation:
      "Add at least one more name server, preferably in another network (a secondary DNS service), and list it at the registrar."
  },
  soa_missing: {
    impact: "Resolvers cannot cache negative answers correctly and secondaries cannot transfer the zone.",
    recommendation: "Make the authoritative servers serve the zone with its SOA record at the apex."
  },
  mx_unresolvable: {
    impact: "Senders cannot deliver to that mail server; with no working MX, mail to the domain bounces.",
    recommendation: "Give each MX host an A and/or AAAA record, or remove the MX entry that points nowhere."
  },
  null_mx_missing: {
    impact:
      "Mail to the domain is not refused at once: senders try its web address, queue the message and bounce it days later, and the name stays attractive to spammers forging it.",
    recommendation:
      "If the domain receives no mail, publish a null MX: `@ MX 0 .` (RFC 7505), with `v=spf1 -all`; if it should, publish MX records naming the mail servers."
  },
  caa_missing: {
    impact: "A mis-issued certificate from any CA is accepted by browsers for your names.",
    recommendation:
      'Publish CAA records naming the CAs you use, for example 0 issue "letsencrypt.org", and an iodef contact.'
  },
  ipv6_mx_missing: {
    impact: "IPv6-only senders cannot deliver mail to you directly.",
    recommendation: "Give the mail servers AAAA records (with matching PTR records)."
  },
  ipv6_web_missing: {
    impact: "IPv6-only visitors reach the site only through translation, if at all.",
    recommendation: "Publish AAAA records for the web site."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
