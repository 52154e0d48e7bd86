/**
 * What a domain owner does about each security.txt issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). The file is a static text file on the web server, under /.well-known/.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const RECORD = [
  "Contact: mailto:security@{domain}",
  "Expires: <a date within a year, such as 2027-06-30T00:00:00Z>",
  "Preferred-Languages: en",
  "Canonical: https://{domain}/.well-known/security.txt"
].join("\n")

/** Where a static file is served for a site behind each provider. */
const WHERE = {
  cloudflare:
    "Cloudflare serves what your origin serves: put the file on the origin, or answer the path with a Worker; make sure no page rule redirects /.well-known/.",
  "route53-ses":
    "Put the file in the S3 bucket or origin behind CloudFront under .well-known/security.txt with Content-Type text/plain; charset=utf-8.",
  "generic-dns":
    "On nginx: location = /.well-known/security.txt { default_type text/plain; charset utf-8; } with the file in the document root; most hosting panels serve a file put in .well-known/ as is."
} as const

/** Where a static file is served for a site behind each provider, in Dutch. */
const WHERE_NL = {
  cloudflare:
    "Cloudflare toont wat je origin toont: zet het bestand op de origin, of beantwoord het pad met een Worker; zorg dat geen page rule /.well-known/ doorverwijst.",
  "route53-ses":
    "Zet het bestand in de S3-bucket of origin achter CloudFront onder .well-known/security.txt met Content-Type text/plain; charset=utf-8.",
  "generic-dns":
    "In nginx: location = /.well-known/security.txt { default_type text/plain; charset utf-8; } met het bestand in de document root; de meeste hostingpanelen tonen een bestand in .well-known/ zoals het is."
} as const

export const guidance = {
  security_txt_missing: guide({
    why: "Someone who finds a weakness in your systems needs to know whom to tell. Without a security.txt they may not find a contact, and the problem stays open or becomes public first.",
    steps: [
      "Choose a contact that someone reads: a mailbox such as security@{domain} or a web form.",
      "Write a text file with at least a Contact and an Expires line (a date less than a year ahead).",
      "Publish it at https://{domain}/.well-known/security.txt as text/plain.",
      "Put renewing the Expires date on the calendar."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9116"],
    nl: {
      why: "Wie een kwetsbaarheid in je systemen vindt, moet weten bij wie hij die kan melden. Zonder security.txt vindt die misschien geen contact, en blijft het probleem open of wordt het eerst openbaar.",
      steps: [
        "Kies een contact dat iemand leest: een mailbox zoals security@{domain} of een webformulier.",
        "Schrijf een tekstbestand met minstens een regel Contact en een regel Expires (een datum minder dan een jaar vooruit).",
        "Publiceer het op https://{domain}/.well-known/security.txt als text/plain.",
        "Zet het vernieuwen van de Expires-datum in de agenda."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_expired: guide({
    why: "The file's Expires date has passed, which tells researchers its contacts may be out of date and not to rely on them.",
    steps: [
      "Check that every Contact still reaches someone.",
      "Set Expires to a date within the next year and publish the file again.",
      "Renew it before that date, for example every six months."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9116"],
    nl: {
      why: "De Expires-datum van het bestand is verstreken; dat vertelt onderzoekers dat de contactgegevens verouderd kunnen zijn en dat ze er niet op moeten vertrouwen.",
      steps: [
        "Controleer of elk Contact nog iemand bereikt.",
        "Zet Expires op een datum binnen het komende jaar en publiceer het bestand opnieuw.",
        "Vernieuw het vóór die datum, bijvoorbeeld elk halfjaar."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_invalid: guide({
    why: "The file breaks the rules of the standard (a required line missing, an insecure link, the wrong file type, or a Canonical line naming another address), so tools and researchers ignore or distrust it.",
    steps: [
      "Read the errors the report lists for the file.",
      "Make sure it has at least one Contact and exactly one Expires line, in the form 2027-06-30T00:00:00Z.",
      "Use https:// (or mailto:) links only.",
      "Serve it as text/plain; charset=utf-8.",
      "If it has Canonical lines, one of them must be https://{domain}/.well-known/security.txt."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9116"],
    nl: {
      why: "Het bestand houdt zich niet aan de regels van de standaard (een verplichte regel ontbreekt, een onveilige link, het verkeerde bestandstype, of een Canonical-regel met een ander adres), dus tools en onderzoekers negeren of wantrouwen het.",
      steps: [
        "Lees de fouten die het rapport voor het bestand noemt.",
        "Zorg voor minstens één Contact-regel en precies één Expires-regel, in de vorm 2027-06-30T00:00:00Z.",
        "Gebruik alleen links met https:// (of mailto:).",
        "Bied het aan als text/plain; charset=utf-8.",
        "Heeft het Canonical-regels, dan moet een daarvan https://{domain}/.well-known/security.txt zijn."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_legacy_location: guide({
    why: "The file is found only at the old location in the root of the site. The standard puts it under /.well-known/, where tools look first.",
    steps: [
      "Publish the same file at https://{domain}/.well-known/security.txt.",
      "Keep the copy at /security.txt or let it redirect to the new one on the same host."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9116"],
    nl: {
      why: "Het bestand staat alleen op de oude plek in de root van de site. De standaard zet het onder /.well-known/, waar tools het eerst zoeken.",
      steps: [
        "Publiceer hetzelfde bestand op https://{domain}/.well-known/security.txt.",
        "Houd de kopie op /security.txt of laat die doorverwijzen naar de nieuwe op dezelfde host."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_redirect_elsewhere: guide({
    why: "The address of the file sends visitors to another web site, so the file found there does not speak for this domain; researchers are told to be wary of it.",
    steps: [
      "Serve the file from {domain} itself at /.well-known/security.txt, over HTTPS.",
      "If a central team handles reports for several domains, copy the file to each domain (its Contact can point to the central team)."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9116"],
    nl: {
      why: "Het adres van het bestand stuurt bezoekers naar een andere website, dus het bestand dat daar staat, spreekt niet voor dit domein; onderzoekers wordt aangeraden het te wantrouwen.",
      steps: [
        "Bied het bestand aan vanaf {domain} zelf op /.well-known/security.txt, via HTTPS.",
        "Behandelt een centraal team meldingen voor meerdere domeinen, kopieer het bestand dan naar elk domein (het Contact mag naar het centrale team wijzen)."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_signature_bad: guide({
    why: "Your security.txt carries an OpenPGP signature and the key that made it is published where the file says, yet the signature does not match the text: the file was edited after it was signed (a changed Expires date is the usual cause), or the key was not valid when it signed. Anyone who checks it sees a file that may have been tampered with.",
    steps: [
      "Take the text of the file as you mean it, without the old signature.",
      "Sign it again with the key you publish: gpg --clearsign --local-user security@{domain} security.txt.",
      "Publish the signed output unchanged at https://{domain}/.well-known/security.txt; sign again after every edit."
    ],
    providers: WHERE,
    references: ["rfc9116"],
    nl: {
      why: "Je security.txt heeft een OpenPGP-handtekening en de sleutel die haar maakte staat waar het bestand zegt, maar de handtekening past niet bij de tekst: het bestand is na het ondertekenen aangepast (meestal een nieuwe Expires-datum), of de sleutel was niet geldig toen hij tekende. Wie het controleert, ziet een bestand dat misschien is vervalst.",
      steps: [
        "Neem de tekst van het bestand zoals je die bedoelt, zonder de oude handtekening.",
        "Onderteken haar opnieuw met de sleutel die je publiceert: gpg --clearsign --local-user security@{domain} security.txt.",
        "Publiceer de ondertekende uitvoer ongewijzigd op https://{domain}/.well-known/security.txt; onderteken opnieuw na elke wijziging."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_signing_key_expired: guide({
    why: "The OpenPGP key that signed your security.txt has passed its expiry date. Its signature no longer vouches for the file, and researchers cannot use it to encrypt a report to you.",
    steps: [
      "Extend the key's expiry (gpg --quick-set-expire <fingerprint> 1y) or create a new key.",
      "Publish the updated public key where the file says: its Encryption URL, or your Web Key Directory (https://openpgpkey.{domain}/.well-known/openpgpkey/...).",
      "Sign the file again and publish it."
    ],
    providers: WHERE,
    references: ["rfc9116"],
    nl: {
      why: "De OpenPGP-sleutel die je security.txt ondertekende is over zijn vervaldatum. Zijn handtekening staat niet meer in voor het bestand, en onderzoekers kunnen er geen melding mee aan je versleutelen.",
      steps: [
        "Verleng de geldigheid van de sleutel (gpg --quick-set-expire <vingerafdruk> 1y) of maak een nieuwe sleutel.",
        "Publiceer de bijgewerkte publieke sleutel waar het bestand zegt: de Encryption-URL, of je Web Key Directory (https://openpgpkey.{domain}/.well-known/openpgpkey/...).",
        "Onderteken het bestand opnieuw en publiceer het."
      ],
      providers: WHERE_NL
    }
  }),
  security_txt_signing_key_expiring: guide({
    why: "The OpenPGP key that signed your security.txt expires within 30 days; after that its signature and the key for encrypted reports stop being usable.",
    steps: [
      "Extend the key's expiry (gpg --quick-set-expire <fingerprint> 1y) before it lapses.",
      "Publish the updated public key where the file says, and sign the file again."
    ],
    providers: WHERE,
    references: ["rfc9116"],
    nl: {
      why: "De OpenPGP-sleutel die je security.txt ondertekende verloopt binnen 30 dagen; daarna zijn de handtekening en de sleutel voor versleutelde meldingen niet meer bruikbaar.",
      steps: [
        "Verleng de geldigheid van de sleutel (gpg --quick-set-expire <vingerafdruk> 1y) voordat hij verloopt.",
        "Publiceer de bijgewerkte publieke sleutel waar het bestand zegt en onderteken het bestand opnieuw."
      ],
      providers: WHERE_NL
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
