/**
 * What a domain owner does about a blocklisting (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): the cause first, the delisting request after.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  blocklisted: guide({
    why: "A mail server address of the domain is on a blocklist that many receivers consult: they reject your mail or put it in spam.",
    steps: [
      "Find the listed address and the list in the report, and read the reason on the list's lookup page.",
      "Stop the cause: a compromised mailbox or web form sending spam, an open relay, or sending to bought address lists.",
      "Request removal on the list's web site once the cause is fixed (repeat listings take longer to clear).",
      "Scan again after the list's stated delay."
    ],
    providers: {
      "google-workspace":
        "Addresses shared by Google or Microsoft are managed by them: report the listing to their support.",
      "microsoft-365":
        "Addresses shared by Google or Microsoft are managed by them: report the listing to their support.",
      "route53-ses":
        "A listed SES shared address is handled by AWS; a dedicated address is yours to fix and delist."
    },
    references: ["rfc5782"],
    nl: {
      why: "Een adres van een mailserver van het domein staat op een blocklist die veel ontvangers raadplegen: zij weigeren je mail of zetten die bij de spam.",
      steps: [
        "Zoek in het rapport het vermelde adres en de lijst op, en lees de reden op de opzoekpagina van die lijst.",
        "Neem de oorzaak weg: een gekaapte mailbox of een webformulier dat spam verstuurt, een open relay, of mail aan gekochte adreslijsten.",
        "Vraag op de website van de lijst om verwijdering zodra de oorzaak is verholpen (een herhaalde vermelding duurt langer).",
        "Scan opnieuw na de wachttijd die de lijst noemt."
      ],
      providers: {
        "google-workspace":
          "Adressen die Google of Microsoft met anderen delen, beheren zij zelf: meld de vermelding bij hun support.",
        "microsoft-365":
          "Adressen die Google of Microsoft met anderen delen, beheren zij zelf: meld de vermelding bij hun support.",
        "route53-ses":
          "Een vermeld gedeeld SES-adres handelt AWS af; een eigen (dedicated) adres moet je zelf herstellen en laten verwijderen."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
