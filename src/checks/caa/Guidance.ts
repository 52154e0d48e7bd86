/**
 * What a domain owner does about each CAA issue (kernel/Declaration.ts `Guidance`, docs/guidance.md).
 * CAA lives in the domain's own zone, so the fix is a record at the DNS host.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  caa_forbids_issuer: guide({
    why: "Your CAA records name the certificate authorities allowed to issue for your names, and the one that issued a certificate you serve today is not among them. It must refuse to renew it, so the site or mail server will present an expired certificate unless the records or the CA change.",
    steps: [
      "Look up in the report which host serves the certificate, which CA issued it and which CAA records govern the host (the record may sit at a parent name).",
      "Decide which CA you mean to use. To keep the current one, add a CAA 'issue' record with its domain (for a wildcard certificate an 'issuewild' record), beside the ones you have.",
      "To move instead, get a certificate from a CA the records permit and install it before the current one expires."
    ],
    providers: {
      cloudflare:
        "With Universal SSL on, Cloudflare adds the CAA records its own CAs need once any CAA record exists; certificates you upload yourself need their CA added by hand.",
      "generic-dns":
        "Most DNS hosts offer CAA as a record type with three fields: flags 0, tag issue (or issuewild), value the CA's domain."
    },
    record: '{domain} CAA 0 issue "letsencrypt.org"',
    references: ["rfc8659"],
    nl: {
      why: "Je CAA-records noemen de certificaatautoriteiten die voor je namen certificaten mogen uitgeven, en de autoriteit die het certificaat uitgaf dat je nu gebruikt staat daar niet bij. Die moet verlenging dus weigeren: de website of mailserver toont dan een verlopen certificaat, tenzij je de records of de CA aanpast.",
      steps: [
        "Zoek in het rapport op welke host het certificaat gebruikt, welke CA het uitgaf en welke CAA-records voor die host gelden (het record kan bij een bovenliggende naam staan).",
        "Kies welke CA je wilt gebruiken. Wil je de huidige houden, voeg dan naast je bestaande records een CAA-record 'issue' met het domein van die CA toe (voor een wildcardcertificaat een record 'issuewild').",
        "Wil je overstappen, haal dan een certificaat bij een CA die de records toestaan en installeer het voordat het huidige verloopt."
      ],
      providers: {
        cloudflare:
          "Met Universal SSL aan voegt Cloudflare zelf de CAA-records voor zijn eigen CA's toe zodra er een CAA-record bestaat; voor certificaten die je zelf uploadt, voeg je de CA met de hand toe.",
        "generic-dns":
          "De meeste DNS-hosts bieden CAA aan als recordtype met drie velden: flags 0, tag issue (of issuewild), waarde het domein van de CA."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
