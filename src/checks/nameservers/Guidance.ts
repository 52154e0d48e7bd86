/**
 * What a domain owner does about each name-server issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). Name servers are run by the DNS host; the delegation is set at the registrar.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  ns_one_network: guide({
    why: "All of the domain's name servers sit in one network. If that network fails or is attacked, nobody can look up the web site or deliver mail.",
    steps: [
      "Ask your DNS host whether it offers name servers in several networks, or add a secondary DNS service from another provider.",
      "Let the new server copy the zone (zone transfer from the primary, or the provider's replication).",
      "Add the new server to the zone's NS records and to the name-server list at the registrar."
    ],
    providers: {
      cloudflare:
        "Cloudflare's name servers are anycast across many networks; a warning here usually means other servers are listed too.",
      "route53-ses":
        "Route 53's four name servers are in four different networks: list all four at the registrar."
    },
    references: ["rfc2182"],
    nl: {
      why: "Alle nameservers van het domein zitten in één netwerk. Valt dat netwerk uit of wordt het aangevallen, dan kan niemand de website opzoeken of mail afleveren.",
      steps: [
        "Vraag je DNS-host of die nameservers in meerdere netwerken aanbiedt, of neem er een secundaire DNS-dienst van een andere provider bij.",
        "Laat de nieuwe server de zone overnemen (zoneoverdracht vanaf de primaire server, of de replicatie van de provider).",
        "Voeg de nieuwe server toe aan de NS-records van de zone en aan de nameserverlijst bij de registrar."
      ],
      providers: {
        cloudflare:
          "De nameservers van Cloudflare zijn anycast over veel netwerken; een waarschuwing hier betekent meestal dat er ook andere servers staan vermeld.",
        "route53-ses":
          "De vier nameservers van Route 53 zitten in vier verschillende netwerken: vermeld ze alle vier bij de registrar."
      }
    }
  }),
  ns_lame: guide({
    why: "A name server listed for the domain does not know the zone. Resolvers that ask it get an error or nothing and must try another, so lookups become slow or fail.",
    steps: [
      "Find the server named in the report and ask whoever runs it whether it should serve the zone.",
      "If it should, add the zone to it (or restore the zone transfer from the primary).",
      "If it should not, remove it from the zone's NS records and from the name-server list at the registrar."
    ],
    providers: {
      "generic-dns":
        "A lame server is often a previous DNS host that was never removed at the registrar after a move."
    },
    references: ["rfc1912", "rfc1034"],
    nl: {
      why: "Een nameserver die voor het domein is opgegeven, kent de zone niet. Resolvers die hem iets vragen, krijgen een foutmelding of niets en moeten een andere proberen, dus opzoeken wordt traag of mislukt.",
      steps: [
        "Zoek de server op die het rapport noemt en vraag wie hem beheert of hij de zone hoort te bedienen.",
        "Zo ja, voeg de zone eraan toe (of herstel de zoneoverdracht vanaf de primaire server).",
        "Zo nee, haal hem uit de NS-records van de zone en uit de nameserverlijst bij de registrar."
      ],
      providers: {
        "generic-dns":
          "Een lame server is vaak een vorige DNS-host die na een verhuizing nooit bij de registrar is verwijderd."
      }
    }
  }),
  ns_inconsistent: guide({
    why: "The name servers do not say the same thing: some serve an older version of the zone, or the list of servers differs between the zone and the registrar. Visitors then see different answers depending on which server they reach.",
    steps: [
      "Compare the SOA serial on each server (shown in the report): a lower serial means that server missed updates; check its zone transfers.",
      "Make the NS records in the zone list exactly the servers registered at the registrar, and update whichever side is wrong."
    ],
    references: ["rfc1034", "rfc2182"],
    nl: {
      why: "De nameservers zeggen niet hetzelfde: sommige geven een oudere versie van de zone, of de lijst met servers verschilt tussen de zone en de registrar. Bezoekers krijgen dan verschillende antwoorden, afhankelijk van de server die ze bereiken.",
      steps: [
        "Vergelijk het SOA-serienummer op elke server (het rapport toont ze): een lager nummer betekent dat die server wijzigingen heeft gemist; controleer zijn zoneoverdrachten.",
        "Laat de NS-records in de zone precies de servers noemen die bij de registrar staan, en pas de kant aan die niet klopt."
      ]
    }
  }),
  ns_no_tcp: guide({
    why: "DNS must also work over TCP. Without it, large answers (DNSSEC keys, long lists) cannot be delivered and some resolvers fail outright.",
    steps: [
      "Open TCP port 53 to the name server in every firewall in front of it.",
      "Check that the server software listens on TCP as well as UDP."
    ],
    references: ["rfc7766"],
    nl: {
      why: "DNS moet ook over TCP werken. Zonder TCP kunnen grote antwoorden (DNSSEC-sleutels, lange lijsten) niet worden afgeleverd en sommige resolvers falen direct.",
      steps: [
        "Open TCP-poort 53 naar de nameserver in elke firewall die ervoor staat.",
        "Controleer dat de serversoftware naast UDP ook op TCP luistert."
      ]
    }
  }),
  ns_open_recursion: guide({
    why: "The domain's name server also looks up other names for anybody who asks. Attackers use such servers to flood victims with traffic and to poison their caches.",
    steps: [
      "Turn recursion off on the authoritative name server (BIND: recursion no; Knot and NSD never recurse).",
      "If the same machine must resolve for your own network, allow recursion only from those addresses, or run a separate resolver."
    ],
    references: ["rfc5358"],
    nl: {
      why: "De nameserver van het domein zoekt ook andere namen op voor iedereen die erom vraagt. Aanvallers gebruiken zulke servers om slachtoffers met verkeer te overspoelen en hun caches te vergiftigen.",
      steps: [
        "Zet recursie uit op de gezaghebbende nameserver (BIND: recursion no; Knot en NSD doen nooit recursie).",
        "Moet dezelfde machine namen opzoeken voor je eigen netwerk, sta recursie dan alleen toe vanaf die adressen, of gebruik een aparte resolver."
      ]
    }
  }),
  ns_no_ipv6: guide({
    why: "None of the domain's name servers can be reached over IPv6, so resolvers on IPv6-only networks cannot find the domain at all.",
    steps: [
      "Ask your DNS host for name servers with IPv6 addresses, or give your own servers an IPv6 address.",
      "Publish an AAAA record for the name server's host name (and IPv6 glue at the registrar if the name is under the domain itself)."
    ],
    providers: {
      cloudflare: "Cloudflare's name servers all have IPv6 addresses.",
      "route53-ses": "Route 53's name servers all have IPv6 addresses."
    },
    references: ["rfc3596"],
    nl: {
      why: "Geen van de nameservers van het domein is via IPv6 bereikbaar, dus resolvers op netwerken met alleen IPv6 kunnen het domein helemaal niet vinden.",
      steps: [
        "Vraag je DNS-host om nameservers met IPv6-adressen, of geef je eigen servers een IPv6-adres.",
        "Publiceer een AAAA-record voor de hostnaam van de nameserver (en IPv6-glue bij de registrar als de naam onder het domein zelf valt)."
      ],
      providers: {
        cloudflare: "De nameservers van Cloudflare hebben allemaal IPv6-adressen.",
        "route53-ses": "De nameservers van Route 53 hebben allemaal IPv6-adressen."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
