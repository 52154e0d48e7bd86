/**
 * What a domain owner does about each DNS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): delegation at the registrar, records at the DNS host.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  dns_no_such_domain: guide({
    why: "The internet's DNS says this domain does not exist: its web site cannot be found, mail to it bounces, and nothing else in this report can be checked.",
    steps: [
      "Log in at the registrar and check that the domain is registered, paid and not expired or on hold.",
      "Check the name servers listed for the domain at the registrar: they must be the ones your DNS host gives you.",
      "Check at the DNS host that the zone exists there and is active.",
      "Scan again once the registrar's change is published (usually within an hour, sometimes a day)."
    ],
    providers: {
      cloudflare:
        "A zone that was never activated or was removed from Cloudflare answers nothing: the dashboard's Overview shows whether the zone is active and which two name servers to set at the registrar.",
      "route53-ses":
        "A new hosted zone gets four new name servers: they must be the ones set at the registrar (Registered domains > Name servers), not those of an older, deleted zone."
    },
    references: ["rfc1034", "rfc1035"],
    nl: {
      why: "Het DNS van internet zegt dat dit domein niet bestaat: de website is niet te vinden, mail eraan komt terug en niets anders in dit rapport kan worden gecontroleerd.",
      steps: [
        "Log in bij de registrar en controleer of het domein geregistreerd en betaald is, en niet verlopen of geblokkeerd.",
        "Controleer de nameservers die bij de registrar voor het domein staan: het moeten de servers zijn die je DNS-host je opgeeft.",
        "Controleer bij de DNS-host dat de zone daar bestaat en actief is.",
        "Scan opnieuw zodra de wijziging bij de registrar is gepubliceerd (meestal binnen een uur, soms een dag)."
      ],
      providers: {
        cloudflare:
          "Een zone die nooit is geactiveerd of uit Cloudflare is verwijderd, beantwoordt niets: het Overview van het dashboard toont of de zone actief is en welke twee nameservers je bij de registrar instelt.",
        "route53-ses":
          "Een nieuwe hosted zone krijgt vier nieuwe nameservers: die moeten bij de registrar staan (Registered domains > Name servers), niet die van een oudere, verwijderde zone."
      }
    }
  }),
  ns_single: guide({
    why: "The whole domain depends on one name server. If it or its network fails, the web site, mail and everything else under the domain become unreachable at once.",
    steps: [
      "Add at least one more name server, preferably run by another provider or in another network (a secondary DNS service).",
      "Make the new server serve the same zone (zone transfer from the primary, or the provider's own replication).",
      "List every name server at the registrar, so the parent zone delegates to all of them."
    ],
    providers: {
      cloudflare:
        "Cloudflare always delegates to two name servers; a single one means the registrar lists only one of them.",
      "route53-ses": "Route 53 gives every hosted zone four name servers: list all four at the registrar."
    },
    references: ["rfc2182", "rfc1034"],
    nl: {
      why: "Het hele domein hangt af van één nameserver. Valt die of zijn netwerk uit, dan zijn website, mail en al het andere onder het domein in één keer onbereikbaar.",
      steps: [
        "Voeg minstens één nameserver toe, bij voorkeur van een andere provider of in een ander netwerk (een secundaire DNS-dienst).",
        "Laat de nieuwe server dezelfde zone bedienen (zoneoverdracht vanaf de primaire server, of de eigen replicatie van de provider).",
        "Vermeld elke nameserver bij de registrar, zodat de bovenliggende zone naar allemaal delegeert."
      ],
      providers: {
        cloudflare:
          "Cloudflare delegeert altijd naar twee nameservers; staat er maar één, dan vermeldt de registrar er maar één van.",
        "route53-ses":
          "Route 53 geeft elke hosted zone vier nameservers: vermeld ze alle vier bij de registrar."
      }
    }
  }),
  soa_missing: guide({
    why: "The zone's start-of-authority record is missing: resolvers cannot cache 'no such name' answers properly and secondary name servers cannot copy the zone.",
    steps: [
      "Check at the DNS host that the zone is served for the domain itself, not only for names below it.",
      "If you run your own name servers, add the SOA record at the zone apex and reload the zone."
    ],
    references: ["rfc1035"],
    nl: {
      why: "Het SOA-record (start of authority) van de zone ontbreekt: resolvers kunnen antwoorden dat een naam niet bestaat niet goed cachen en secundaire nameservers kunnen de zone niet overnemen.",
      steps: [
        "Controleer bij de DNS-host dat de zone voor het domein zelf wordt bediend, niet alleen voor namen eronder.",
        "Beheer je je eigen nameservers, voeg dan het SOA-record toe aan de apex van de zone en laad de zone opnieuw."
      ]
    }
  }),
  mx_unresolvable: guide({
    why: "A mail server named in the domain's MX records has no address, so senders cannot deliver to it; if none of them has one, all mail to the domain bounces.",
    steps: [
      "List the domain's MX records and check each named host.",
      "Give each mail server name an A (IPv4) and, where it has one, an AAAA (IPv6) record, or correct the name if it is misspelt.",
      "Remove MX records that name servers you no longer use."
    ],
    providers: {
      "google-workspace":
        "Google Workspace needs one MX record: smtp.google.com with priority 1 (older setups list aspmx.l.google.com and its alternates).",
      "microsoft-365":
        "Microsoft 365 needs one MX record: <domain-with-dashes>.mail.protection.outlook.com, as shown in the admin center under Settings > Domains."
    },
    references: ["rfc5321"],
    nl: {
      why: "Een mailserver die in de MX-records van het domein staat, heeft geen adres, dus afzenders kunnen er niet bij afleveren; heeft geen enkele er een, dan komt alle mail aan het domein terug.",
      steps: [
        "Zet de MX-records van het domein op een rij en controleer elke genoemde host.",
        "Geef elke mailservernaam een A-record (IPv4) en, waar hij dat heeft, een AAAA-record (IPv6), of verbeter de naam als die verkeerd gespeld is.",
        "Verwijder MX-records die servers noemen die je niet meer gebruikt."
      ],
      providers: {
        "google-workspace":
          "Google Workspace heeft één MX-record nodig: smtp.google.com met prioriteit 1 (oudere inrichtingen noemen aspmx.l.google.com en zijn alternatieven).",
        "microsoft-365":
          "Microsoft 365 heeft één MX-record nodig: <domein-met-streepjes>.mail.protection.outlook.com, zoals het beheercentrum toont onder Instellingen > Domeinen."
      }
    }
  }),
  null_mx_missing: guide({
    why: "The domain has no mail servers but does not say so. Senders then try to deliver to its web server, hold messages for days before bouncing them, and the name is attractive to forge.",
    steps: [
      "If the domain should receive mail, publish MX records naming its mail servers.",
      "If it never receives mail, publish a null MX record (priority 0, host '.').",
      "For a domain that sends no mail either, also publish the SPF record v=spf1 -all and a DMARC record with p=reject."
    ],
    record: "{domain} MX 0 .",
    references: ["rfc7505", "rfc5321"],
    nl: {
      why: "Het domein heeft geen mailservers, maar zegt dat niet. Afzenders proberen dan bij de webserver af te leveren, houden berichten dagenlang vast voordat ze terugkomen, en de naam is aantrekkelijk om te vervalsen.",
      steps: [
        "Moet het domein mail ontvangen, publiceer dan MX-records met de mailservers.",
        "Ontvangt het nooit mail, publiceer dan een null MX-record (prioriteit 0, host '.').",
        "Verstuurt het domein ook geen mail, publiceer dan ook het SPF-record v=spf1 -all en een DMARC-record met p=reject."
      ]
    }
  }),
  caa_missing: guide({
    why: "Any certificate authority may issue certificates for the domain. A CAA record limits that to the authorities you use, so a mistake or fraud at another one cannot produce a certificate browsers accept for your site.",
    steps: [
      "Find out which certificate authorities issue your certificates (the certificates of your web and mail servers name them; Let's Encrypt, DigiCert, Sectigo, Google Trust Services and so on).",
      "Publish one CAA 'issue' record for each of them at the domain; add 'issuewild' if only some may issue wildcard certificates.",
      "Add an 'iodef' record with a mailbox that authorities may report refused requests to.",
      "Renew a certificate afterwards to check that your authority still issues."
    ],
    providers: {
      cloudflare:
        "Cloudflare's edge certificates come from Let's Encrypt, Google Trust Services and others: with Universal SSL on, Cloudflare adds the CAA records it needs itself once you publish any CAA record.",
      "route53-ses":
        "Certificates from AWS Certificate Manager need issue records for amazon.com (and amazontrust.com, awstrust.com, amazonaws.com).",
      "generic-dns":
        "Most DNS hosts offer CAA as a record type with three fields: flags 0, tag issue, value the authority's domain."
    },
    record: '{domain} CAA 0 issue "letsencrypt.org"',
    references: ["rfc8659"],
    nl: {
      why: "Elke certificaatautoriteit mag certificaten voor het domein uitgeven. Een CAA-record beperkt dat tot de autoriteiten die je gebruikt, zodat een fout of fraude bij een andere geen certificaat kan opleveren dat browsers voor je site accepteren.",
      steps: [
        "Zoek uit welke certificaatautoriteiten je certificaten uitgeven (de certificaten van je web- en mailservers noemen ze: Let's Encrypt, DigiCert, Sectigo, Google Trust Services enzovoort).",
        "Publiceer bij het domein voor elk van hen één CAA-record 'issue'; voeg 'issuewild' toe als maar sommige wildcardcertificaten mogen uitgeven.",
        "Voeg een record 'iodef' toe met een mailbox waar autoriteiten geweigerde aanvragen kunnen melden.",
        "Vernieuw daarna een certificaat om te controleren dat je autoriteit nog uitgeeft."
      ],
      providers: {
        cloudflare:
          "De edgecertificaten van Cloudflare komen van Let's Encrypt, Google Trust Services en anderen: met Universal SSL aan voegt Cloudflare zelf de CAA-records toe die het nodig heeft zodra je een CAA-record publiceert.",
        "route53-ses":
          "Certificaten van AWS Certificate Manager hebben issue-records nodig voor amazon.com (en amazontrust.com, awstrust.com, amazonaws.com).",
        "generic-dns":
          "De meeste DNS-hosts bieden CAA aan als recordtype met drie velden: flags 0, tag issue, waarde het domein van de autoriteit."
      }
    }
  }),
  ipv6_mx_missing: guide({
    why: "None of the domain's mail servers has an IPv6 address, so senders that only have IPv6 cannot deliver mail to you directly.",
    steps: [
      "Ask your mail provider or network whether the mail servers have IPv6 addresses.",
      "Publish an AAAA record for each mail server name, and have its provider set a reverse (PTR) name for each new address.",
      "Scan again: each MX host should show an IPv6 address."
    ],
    providers: {
      "google-workspace":
        "Google's mail servers have IPv6 already: the MX records only need to name Google's servers.",
      "microsoft-365":
        "Microsoft 365 gives IPv6 to inbound mail once IPv6 is enabled for the domain (Enable-IPv6ForAcceptedDomain in Exchange Online PowerShell)."
    },
    references: ["rfc3596"],
    nl: {
      why: "Geen van de mailservers van het domein heeft een IPv6-adres, dus afzenders met alleen IPv6 kunnen niet rechtstreeks mail bij je afleveren.",
      steps: [
        "Vraag je mailprovider of netwerkbeheerder of de mailservers IPv6-adressen hebben.",
        "Publiceer een AAAA-record voor elke mailservernaam, en laat de provider voor elk nieuw adres een reverse naam (PTR) instellen.",
        "Scan opnieuw: elke MX-host hoort een IPv6-adres te tonen."
      ],
      providers: {
        "google-workspace":
          "De mailservers van Google hebben al IPv6: de MX-records hoeven alleen de servers van Google te noemen.",
        "microsoft-365":
          "Microsoft 365 geeft inkomende mail IPv6 zodra IPv6 voor het domein aan staat (Enable-IPv6ForAcceptedDomain in Exchange Online PowerShell)."
      }
    }
  }),
  ipv6_web_missing: guide({
    why: "The web site has no IPv6 address. A growing share of visitors, mobile networks above all, reach it only through translation, which is slower and sometimes fails.",
    steps: [
      "Ask your hosting provider for the site's IPv6 address, or enable IPv6 on the server.",
      "Publish an AAAA record for the domain (and for www) with that address.",
      "Open the site over IPv6 (or scan again) to check that it answers there as it does over IPv4."
    ],
    providers: {
      cloudflare: "Proxied records get IPv6 automatically (Network > IPv6 Compatibility on).",
      "route53-ses":
        "For CloudFront or a load balancer, enable IPv6 on it and add an alias record of type AAAA beside the A alias."
    },
    references: ["rfc3596"],
    nl: {
      why: "De website heeft geen IPv6-adres. Een groeiend deel van de bezoekers, vooral op mobiele netwerken, bereikt hem alleen via vertaling, en dat is trager en mislukt soms.",
      steps: [
        "Vraag je hostingprovider om het IPv6-adres van de site, of zet IPv6 aan op de server.",
        "Publiceer een AAAA-record voor het domein (en voor www) met dat adres.",
        "Open de site via IPv6 (of scan opnieuw) om te controleren dat hij daar net zo antwoordt als via IPv4."
      ],
      providers: {
        cloudflare: "Geproxiede records krijgen automatisch IPv6 (Network > IPv6 Compatibility aan).",
        "route53-ses":
          "Zet bij CloudFront of een loadbalancer IPv6 aan en voeg naast de A-alias een aliasrecord van het type AAAA toe."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
