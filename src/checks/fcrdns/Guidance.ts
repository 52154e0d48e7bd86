/**
 * What a domain owner does about each reverse-DNS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). A reverse name is set by whoever owns the address (the hosting or network
 * provider), not in the domain's own zone.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  ptr_missing: guide({
    why: "A mail server address without a reverse name looks like a home computer sending spam: many receivers refuse or downgrade mail from it.",
    steps: [
      "Find out who provides the mail server's IP address (your hosting, cloud or network provider).",
      "Ask them, or use their control panel, to set the reverse (PTR) name of the address to the mail server's host name, for example mail.{domain}.",
      "Make sure that host name has an A or AAAA record pointing back to the same address."
    ],
    providers: {
      "google-workspace":
        "Mail sent through Google's servers already has reverse names: this concerns only servers of your own.",
      "microsoft-365":
        "Mail sent through Exchange Online already has reverse names: this concerns only servers of your own.",
      "route53-ses":
        "On EC2, request the reverse name for an Elastic IP (EC2 > Elastic IPs > Update reverse DNS); Amazon SES's shared addresses need nothing.",
      "generic-dns":
        "The PTR record lives in the provider's reverse zone (in-addr.arpa or ip6.arpa), not at your DNS host, unless the provider delegated it to you."
    },
    references: ["rfc1912", "m3aawg"],
    nl: {
      why: "Een mailserveradres zonder reverse naam lijkt op een thuiscomputer die spam verstuurt: veel ontvangers weigeren mail ervan of waarderen die lager.",
      steps: [
        "Zoek uit wie het IP-adres van de mailserver levert (je hosting-, cloud- of netwerkprovider).",
        "Vraag hen, of gebruik hun beheerpaneel, om de reverse naam (PTR) van het adres op de hostnaam van de mailserver te zetten, bijvoorbeeld mail.{domain}.",
        "Zorg dat die hostnaam een A- of AAAA-record heeft dat terugwijst naar hetzelfde adres."
      ],
      providers: {
        "google-workspace":
          "Mail die via de servers van Google gaat, heeft al reverse namen: dit geldt alleen voor je eigen servers.",
        "microsoft-365":
          "Mail die via Exchange Online gaat, heeft al reverse namen: dit geldt alleen voor je eigen servers.",
        "route53-ses":
          "Vraag op EC2 de reverse naam aan voor een Elastic IP (EC2 > Elastic IPs > Update reverse DNS); de gedeelde adressen van Amazon SES hebben niets nodig.",
        "generic-dns":
          "Het PTR-record staat in de reverse zone van de provider (in-addr.arpa of ip6.arpa), niet bij je DNS-host, tenzij de provider die aan jou heeft gedelegeerd."
      }
    }
  }),
  fcrdns_mismatch: guide({
    why: "The mail server's reverse name does not lead back to its address. Receivers take a name that cannot be confirmed both ways as a sign of a misconfigured or hijacked sender.",
    steps: [
      "Look up the reverse name of the mail server address (shown in the report).",
      "Publish an A or AAAA record for that name with exactly that address, or have the address's provider change the reverse name to a host name that does point to it."
    ],
    providers: {
      "route53-ses":
        "EC2 only sets a reverse name for an Elastic IP once the forward A record for that name points at it."
    },
    references: ["rfc1912", "m3aawg"],
    nl: {
      why: "De reverse naam van de mailserver leidt niet terug naar zijn adres. Ontvangers zien een naam die niet in beide richtingen klopt als teken van een verkeerd ingestelde of gekaapte afzender.",
      steps: [
        "Zoek de reverse naam van het mailserveradres op (het rapport toont die).",
        "Publiceer voor die naam een A- of AAAA-record met precies dat adres, of laat de aanbieder van het adres de reverse naam wijzigen in een hostnaam die er wel naar wijst."
      ],
      providers: {
        "route53-ses":
          "EC2 zet pas een reverse naam voor een Elastic IP als het A-record van die naam ernaar wijst."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
