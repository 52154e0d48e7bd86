/**
 * What a domain owner does about each registration issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). Registration is renewed at the registrar, not in the zone.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  registration_expiring: guide({
    why: "When a domain's registration lapses, its web site and mail stop working, and after a grace period anybody can register the name and receive the mail meant for you.",
    steps: [
      "Log in at the registrar where {domain} is registered (the RDAP link in the report names the registry).",
      "Renew the registration for at least a year.",
      "Turn on automatic renewal and check that the payment method and the contact address are current."
    ],
    providers: {
      cloudflare:
        "Cloudflare Registrar renews automatically; check the payment method under Domain Registration.",
      "route53-ses": "Route 53: Registered domains > {domain} > Auto renew."
    },
    references: ["rfc9083"],
    nl: {
      why: "Verloopt de registratie van een domein, dan werken de website en de mail niet meer, en na een respijtperiode kan iedereen de naam registreren en de mail ontvangen die voor jou bedoeld is.",
      steps: [
        "Log in bij de registrar waar {domain} geregistreerd is (de RDAP-link in het rapport noemt de registry).",
        "Verleng de registratie met minstens een jaar.",
        "Zet automatisch verlengen aan en controleer of de betaalmethode en het contactadres kloppen."
      ],
      providers: {
        cloudflare:
          "Cloudflare Registrar verlengt automatisch; controleer de betaalmethode onder Domain Registration.",
        "route53-ses": "Route 53: Registered domains > {domain} > Auto renew."
      }
    }
  }),
  registration_expired: guide({
    why: "The registration has passed its expiry date: the registry can take the domain offline at any moment and, once it is deleted, anybody can register it.",
    steps: [
      "Contact the registrar of {domain} today: most registries keep an expired domain in a grace or redemption period for 30 to 75 days.",
      "Pay the renewal (and a redemption fee if the grace period has passed).",
      "Turn on automatic renewal."
    ],
    references: ["rfc9083"],
    nl: {
      why: "De registratie is over de vervaldatum heen: de registry kan het domein elk moment offline halen en zodra het is verwijderd, kan iedereen het registreren.",
      steps: [
        "Neem vandaag nog contact op met de registrar van {domain}: de meeste registry's houden een verlopen domein 30 tot 75 dagen in een respijt- of quarantaineperiode.",
        "Betaal de verlenging (en een herstelvergoeding als de respijtperiode voorbij is).",
        "Zet automatisch verlengen aan."
      ]
    }
  }),
  dependency_expiring: guide({
    why: "Your domain names another domain in its records (a name server, mail server, SPF include, report address or alias). If that domain lapses, whoever registers it next controls that part of your domain.",
    steps: [
      "Find the domain and the record that names it in the report's dependency list.",
      "If it is yours, renew it. If it belongs to a provider, ask them whether they still use it.",
      "If you no longer use the service, remove the record that names it."
    ],
    references: ["rfc9083"],
    nl: {
      why: "Je domein noemt in zijn records een ander domein (een nameserver, mailserver, SPF-include, rapportadres of alias). Verloopt dat domein, dan beheert wie het daarna registreert dat deel van jouw domein.",
      steps: [
        "Zoek in de afhankelijkhedenlijst van het rapport het domein en het record dat het noemt.",
        "Is het van jou, verleng het dan. Is het van een provider, vraag dan of die het nog gebruikt.",
        "Gebruik je de dienst niet meer, verwijder dan het record dat het noemt."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
