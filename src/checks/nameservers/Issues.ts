/**
 * The issues the name-server check reports: its entries of the issue catalogue (docs/issues.md)
 * and the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  ns_one_network: e(
    "dns",
    "medium",
    false,
    "Name servers share one network",
    "Every name server address is in one IPv4 /24 (or one IPv6 /48): one network failure takes them all down (RFC 2182 3.1).",
    nl(
      "Nameservers delen één netwerk",
      "Alle adressen van de nameservers liggen in één IPv4-/24 (of één IPv6-/48): één netwerkstoring legt ze allemaal plat (RFC 2182 3.1)."
    )
  ),
  ns_lame: e(
    "dns",
    "high",
    false,
    "Lame delegation",
    "A name server listed for the domain does not answer for its zone with authority (RFC 1912 2.8): resolvers that ask it fail or wait.",
    nl(
      "Kreupele delegatie",
      "Een opgegeven nameserver van het domein antwoordt niet met autoriteit voor de zone (RFC 1912 2.8): resolvers die hem vragen falen of wachten."
    )
  ),
  ns_inconsistent: e(
    "dns",
    "medium",
    false,
    "Name servers disagree",
    "The name servers serve different SOA serials or NS sets, or their NS set differs from the parent's delegation (RFC 1034 4.2.2).",
    nl(
      "Nameservers spreken elkaar tegen",
      "De nameservers geven verschillende SOA-serienummers of NS-sets, of hun NS-set wijkt af van de delegatie in de bovenliggende zone (RFC 1034 4.2.2)."
    )
  ),
  ns_no_tcp: e(
    "dns",
    "medium",
    false,
    "Name server does not answer over TCP",
    "Every authoritative server must answer over TCP (RFC 7766 5); large answers such as DNSSEC keys need it.",
    nl(
      "Nameserver antwoordt niet via TCP",
      "Elke gezaghebbende server moet via TCP antwoorden (RFC 7766 5); grote antwoorden zoals DNSSEC-sleutels hebben het nodig."
    )
  ),
  ns_open_recursion: e(
    "dns",
    "high",
    false,
    "Name server is an open resolver",
    "A name server answers recursive questions from anyone, which makes it a tool for reflection attacks and cache poisoning (RFC 5358).",
    nl(
      "Nameserver is een open resolver",
      "Een nameserver beantwoordt recursieve vragen van iedereen en is zo bruikbaar voor reflectieaanvallen en cachevergiftiging (RFC 5358)."
    )
  ),
  ns_no_ipv6: e(
    "ipv6",
    "low",
    false,
    "No name server on IPv6",
    "No name server of the domain answers on an IPv6 address (RFC 3596), so resolvers with IPv6 only cannot resolve it.",
    nl(
      "Geen nameserver via IPv6",
      "Geen nameserver van het domein antwoordt op een IPv6-adres (RFC 3596), dus resolvers met alleen IPv6 kunnen het niet opzoeken."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  ns_one_network: {
    impact: "An outage of that one network, or an attack on it, makes the whole domain unresolvable.",
    recommendation:
      "Add a name server in another network, ideally run by another provider (a secondary DNS service)."
  },
  ns_lame: {
    impact:
      "Resolvers that pick the lame server get no answer or an error, so lookups are slow or fail at random.",
    recommendation:
      "Make the server serve the zone, or remove it from the NS records and from the delegation at the registrar."
  },
  ns_inconsistent: {
    impact:
      "Resolvers get different answers depending on which server they ask; changes seem to come and go.",
    recommendation:
      "Make every server serve the current zone (check zone transfers), and make the registrar's NS list match the zone's NS records."
  },
  ns_no_tcp: {
    impact:
      "Answers too large for UDP (DNSSEC, many records) cannot be fetched, and resolvers that fall back to TCP fail.",
    recommendation:
      "Allow TCP port 53 to the name server in its firewall and enable TCP in the server software."
  },
  ns_open_recursion: {
    impact: "The server can be abused to flood others with amplified traffic, and its cache poisoned.",
    recommendation:
      "Turn recursion off on the authoritative server, or restrict it to the operator's own networks (RFC 5358)."
  },
  ns_no_ipv6: {
    impact: "Resolvers on IPv6-only networks cannot reach the domain's name servers.",
    recommendation: "Give at least one name server an IPv6 address (AAAA) that answers for the zone."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
