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
  }),
  caa_parameter_syntax: guide({
    why: "One of your CAA issue, issuewild or issuemail values does not follow the grammar of RFC 8659 (issuer; key=value; ...) or the parameters of RFC 8657. A CA must treat a value it cannot read as permitting no CA, so it may refuse your next certificate, and a restriction you meant to add (one ACME account, one validation method) does not work as intended.",
    steps: [
      "Look up in the report which CAA value is wrong and why (the record may sit at a parent name).",
      "Rewrite it as issuer; key=value; key=value: keys of letters, digits and hyphens, values without spaces or ';', no ';' at the end.",
      "For accounturi give the full account URL your ACME client shows; for validationmethods a comma list such as dns-01,http-01 (or a CA's own ca- method)."
    ],
    providers: {
      "generic-dns":
        "Most DNS hosts take the value in one field; some add the quotes themselves, so do not type them twice."
    },
    record: '{domain} CAA 0 issue "letsencrypt.org; validationmethods=dns-01"',
    references: ["rfc8659", "rfc8657"],
    nl: {
      why: "Een van je CAA-waarden voor issue, issuewild of issuemail volgt de grammatica van RFC 8659 (uitgever; sleutel=waarde; ...) of de parameters van RFC 8657 niet. Een CA moet een waarde die hij niet kan lezen opvatten als een die geen enkele CA toestaat, dus hij kan je volgende certificaat weigeren, en een beperking die je bedoelde (één ACME-account, één validatiemethode) werkt niet zoals bedoeld.",
      steps: [
        "Zoek in het rapport op welke CAA-waarde fout is en waarom (het record kan bij een bovenliggende naam staan).",
        "Schrijf haar als uitgever; sleutel=waarde; sleutel=waarde: sleutels van letters, cijfers en koppeltekens, waarden zonder spaties of ';', geen ';' aan het eind.",
        "Geef bij accounturi de volledige account-URL die je ACME-client toont; bij validationmethods een lijst met komma's zoals dns-01,http-01 (of een eigen ca-methode van de CA)."
      ],
      providers: {
        "generic-dns":
          "De meeste DNS-hosts nemen de waarde in één veld; sommige zetten de aanhalingstekens er zelf omheen, typ ze dan niet dubbel."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
