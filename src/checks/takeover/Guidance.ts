/**
 * What a domain owner does about each takeover issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): remove the record that points at what somebody else could claim.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  cname_dangling: guide({
    why: "A name of your domain is an alias for a name that no longer exists, often a cloud app or bucket that was deleted. Whoever creates that name again serves their content under your domain.",
    steps: [
      "Find the CNAME record named in the report in the DNS zone of {domain}.",
      "If the service behind it is gone, delete the record.",
      "If the service moved, point the record at its new name, and check that the name resolves."
    ],
    providers: {
      cloudflare: "DNS > Records: delete the CNAME row (proxied records are affected too).",
      "route53-ses": "Route 53 > Hosted zones > {domain}: delete the CNAME record set."
    },
    references: ["rfc1034", "https://github.com/EdOverflow/can-i-take-over-xyz"],
    nl: {
      why: "Een naam van je domein is een alias voor een naam die niet meer bestaat, vaak een cloudapp of bucket die is verwijderd. Wie die naam opnieuw aanmaakt, toont zijn eigen inhoud onder jouw domein.",
      steps: [
        "Zoek het CNAME-record uit het rapport op in de DNS-zone van {domain}.",
        "Is de dienst erachter verdwenen, verwijder dan het record.",
        "Is de dienst verhuisd, laat het record dan naar de nieuwe naam wijzen en controleer dat die naam resolvet."
      ],
      providers: {
        cloudflare: "DNS > Records: verwijder de CNAME-regel (ook geproxiede records lopen dit risico).",
        "route53-ses": "Route 53 > Hosted zones > {domain}: verwijder de CNAME-recordset."
      }
    }
  }),
  cname_unclaimed: guide({
    why: "A name of your domain points at a hosting service that has no site for it. Anybody can open an account there, add your name, and serve their pages under your domain.",
    steps: [
      "Find the CNAME record named in the report in the DNS zone of {domain}.",
      "If you no longer use the hosting service, delete the record.",
      "If you do, add the name to your site at the service again (GitHub Pages: the repository's custom domain setting)."
    ],
    references: ["https://github.com/EdOverflow/can-i-take-over-xyz"],
    nl: {
      why: "Een naam van je domein wijst naar een hostingdienst die er geen site voor heeft. Iedereen kan daar een account openen, jouw naam toevoegen en eigen pagina's onder jouw domein tonen.",
      steps: [
        "Zoek het CNAME-record uit het rapport op in de DNS-zone van {domain}.",
        "Gebruik je de hostingdienst niet meer, verwijder dan het record.",
        "Gebruik je die wel, voeg de naam dan opnieuw toe aan je site bij de dienst (GitHub Pages: de instelling custom domain van de repository)."
      ]
    }
  }),
  dependency_unregistered: guide({
    why: "Your records name a domain that nobody has registered. Whoever registers it decides what its name servers, mail servers or SPF record say, and with that what your domain says.",
    steps: [
      "Find the records named in the report (an NS, MX, SPF include, DMARC or TLS-RPT address, BIMI URL or CNAME).",
      "Remove each of them, or replace the name with the provider's current one.",
      "If the domain was yours and lapsed, register it again before somebody else does."
    ],
    references: ["rfc9083", "rfc7208"],
    nl: {
      why: "Je records noemen een domein dat niemand heeft geregistreerd. Wie het registreert, bepaalt wat de nameservers, mailservers of het SPF-record ervan zeggen, en daarmee wat jouw domein zegt.",
      steps: [
        "Zoek de records uit het rapport op (een NS, MX, SPF-include, DMARC- of TLS-RPT-adres, BIMI-URL of CNAME).",
        "Verwijder ze allemaal, of vervang de naam door de huidige naam van de provider.",
        "Was het domein van jou en is het verlopen, registreer het dan opnieuw voordat iemand anders het doet."
      ]
    }
  }),
  dependency_unresolvable: guide({
    why: "Your records name a domain whose name servers fail, so what it provides (mail, an SPF include, an alias) cannot be used, and a lapsed delegation can be taken over.",
    steps: [
      "Find the records named in the report.",
      "Ask the owner of the other domain to fix its name servers, or remove the records if you no longer use the service."
    ],
    references: ["rfc1035"],
    nl: {
      why: "Je records noemen een domein waarvan de nameservers falen, zodat wat het levert (mail, een SPF-include, een alias) niet te gebruiken is, en een vervallen delegatie kan worden overgenomen.",
      steps: [
        "Zoek de records uit het rapport op.",
        "Vraag de eigenaar van het andere domein zijn nameservers te herstellen, of verwijder de records als je de dienst niet meer gebruikt."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
