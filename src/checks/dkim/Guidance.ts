/**
 * What a domain owner does about each DKIM issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). A DKIM key lives at `<selector>._domainkey.<domain>`; the mailbox provider
 * that signs holds the private key, so the steps run in its console.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  dkim_weak_key: guide({
    why: "Mail is signed with a DKIM key shorter than 2048 bits. Such keys can be broken with affordable computing power, after which others can sign mail that receivers accept as yours.",
    steps: [
      "Create a new 2048-bit key under a new selector at the service that signs your mail.",
      "Publish the new public key (TXT or CNAME at <selector>._domainkey.{domain}) and wait for it to be visible.",
      "Switch signing to the new selector.",
      "After a week, empty the old selector's key (p= with no value) so it can no longer be used."
    ],
    providers: {
      "google-workspace":
        "Admin console > Apps > Google Workspace > Gmail > Authenticate email: generate a new record with key length 2048, publish the TXT record it shows, then Start authentication.",
      "microsoft-365":
        "Microsoft Defender portal > Email & collaboration > Policies > Email authentication settings > DKIM: select the domain and Rotate DKIM keys (2048-bit), or rotate with Rotate-DkimSigningConfig -KeySize 2048.",
      "route53-ses":
        "SES Easy DKIM uses 2048-bit keys by default; for Bring Your Own DKIM, generate a 2048-bit key and re-verify the identity.",
      cloudflare: "Cloudflare only holds the DNS record: the new key comes from the service that signs."
    },
    record: 'selector2._domainkey.{domain} TXT "v=DKIM1; k=rsa; p=<2048-bit public key>"',
    references: ["rfc8301", "rfc6376"],
    nl: {
      why: "Mail wordt ondertekend met een DKIM-sleutel korter dan 2048 bits. Zulke sleutels zijn met betaalbare rekenkracht te kraken, waarna anderen mail kunnen ondertekenen die ontvangers als de jouwe accepteren.",
      steps: [
        "Maak bij de dienst die je mail ondertekent een nieuwe sleutel van 2048 bits aan onder een nieuwe selector.",
        "Publiceer de nieuwe publieke sleutel (TXT of CNAME op <selector>._domainkey.{domain}) en wacht tot die zichtbaar is.",
        "Laat de ondertekening overschakelen op de nieuwe selector.",
        "Maak na een week de sleutel van de oude selector leeg (p= zonder waarde), zodat die niet meer te gebruiken is."
      ],
      providers: {
        "google-workspace":
          "Beheerdersconsole > Apps > Google Workspace > Gmail > E-mail verifiëren: genereer een nieuw record met sleutellengte 2048, publiceer het TXT-record dat je ziet en kies dan Verificatie starten.",
        "microsoft-365":
          "Microsoft Defender-portal > Email & collaboration > Policies > Email authentication settings > DKIM: kies het domein en Rotate DKIM keys (2048 bits), of roteer met Rotate-DkimSigningConfig -KeySize 2048.",
        "route53-ses":
          "SES Easy DKIM gebruikt standaard sleutels van 2048 bits; bij Bring Your Own DKIM maak je een sleutel van 2048 bits aan en verifieer je de identiteit opnieuw.",
        cloudflare:
          "Cloudflare bewaart alleen het DNS-record: de nieuwe sleutel komt van de dienst die ondertekent."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
