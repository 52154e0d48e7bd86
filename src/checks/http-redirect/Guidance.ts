/**
 * What a domain owner does about each HTTP-to-HTTPS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). The redirect is configured where port 80 is answered: the web server, the
 * load balancer or the CDN in front of it.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const WHERE = {
  cloudflare:
    "SSL/TLS > Edge Certificates > Always Use HTTPS redirects every http:// request to the same URL on https://; turn on HSTS on the same page.",
  "route53-ses":
    "On CloudFront set the behaviour's Viewer protocol policy to Redirect HTTP to HTTPS; on a load balancer, add a port 80 listener rule that redirects to HTTPS, port 443, same host and path.",
  "generic-dns":
    "On nginx: server { listen 80; server_name {domain} www.{domain}; return 301 https://$host$request_uri; }. On Apache: Redirect permanent / https://{domain}/ in the port 80 virtual host of each name."
} as const

const RECORD = "HTTP/1.1 301 Moved Permanently\nLocation: https://{domain}/"

/** Where each provider sets the redirect, in Dutch. */
const WHERE_NL = {
  cloudflare:
    "SSL/TLS > Edge Certificates > Always Use HTTPS stuurt elk http://-verzoek door naar dezelfde URL op https://; zet op dezelfde pagina HSTS aan.",
  "route53-ses":
    "Zet op CloudFront de Viewer protocol policy van de behaviour op Redirect HTTP to HTTPS; voeg op een loadbalancer een listenerregel voor poort 80 toe die doorstuurt naar HTTPS, poort 443, zelfde host en pad.",
  "generic-dns":
    "In nginx: server { listen 80; server_name {domain} www.{domain}; return 301 https://$host$request_uri; }. In Apache: Redirect permanent / https://{domain}/ in de virtual host voor poort 80 van elke naam."
} as const

export const guidance = {
  http_no_redirect: guide({
    why: "Visitors who type your address without https:// (or follow an old link) get the site unencrypted. Anyone on the same network can read what they send and change what they see.",
    steps: [
      "Make sure the site works over https:// for every name it is reached by.",
      "Answer every request on port 80 with a permanent redirect (301) to the same address on https://, on the same host.",
      "Send Strict-Transport-Security on the HTTPS answers, so browsers go straight to HTTPS next time.",
      "Scan again: http:// should redirect, and HTTPS should carry HSTS."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9110", "rfc6797"],
    nl: {
      why: "Bezoekers die je adres zonder https:// intikken (of een oude link volgen), krijgen de site onversleuteld. Iedereen op hetzelfde netwerk kan lezen wat ze versturen en veranderen wat ze zien.",
      steps: [
        "Zorg dat de site via https:// werkt voor elke naam waaronder hij bereikbaar is.",
        "Beantwoord elk verzoek op poort 80 met een permanente doorverwijzing (301) naar hetzelfde adres op https://, op dezelfde host.",
        "Stuur Strict-Transport-Security mee met de HTTPS-antwoorden, zodat browsers de volgende keer direct naar HTTPS gaan.",
        "Scan opnieuw: http:// hoort door te verwijzen en HTTPS hoort HSTS mee te sturen."
      ],
      providers: WHERE_NL
    }
  }),
  http_redirect_off_host: guide({
    why: "Plain HTTP sends visitors to another name first (for example from {domain} straight to https://www.{domain}). Browsers then never load https://{domain}/ and never learn its HSTS policy, so the bare name stays open to a downgrade.",
    steps: [
      "Redirect http://{domain}/ to https://{domain}/ first (the same name).",
      "Let https://{domain}/ send Strict-Transport-Security and then redirect to the name you prefer.",
      "Do the same for www: http://www.{domain}/ to https://www.{domain}/."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"],
    nl: {
      why: "Gewone HTTP stuurt bezoekers eerst naar een andere naam (bijvoorbeeld van {domain} direct naar https://www.{domain}). Browsers laden https://{domain}/ dan nooit en leren het HSTS-beleid ervan niet, dus de kale naam blijft open voor een downgrade.",
      steps: [
        "Verwijs http://{domain}/ eerst door naar https://{domain}/ (dezelfde naam).",
        "Laat https://{domain}/ Strict-Transport-Security sturen en pas daarna doorverwijzen naar de naam die je verkiest.",
        "Doe hetzelfde voor www: http://www.{domain}/ naar https://www.{domain}/."
      ],
      providers: WHERE_NL
    }
  }),
  http_redirect_via_http: guide({
    why: "The redirect from plain HTTP goes to another plain HTTP address first. Each unencrypted hop can be changed by an attacker on the network.",
    steps: ["Make the first redirect from http:// go directly to https:// on the same name."],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"],
    nl: {
      why: "De doorverwijzing vanaf gewone HTTP gaat eerst naar een ander gewoon HTTP-adres. Elke onversleutelde tussenstap kan een aanvaller op het netwerk wijzigen.",
      steps: ["Laat de eerste doorverwijzing vanaf http:// direct naar https:// op dezelfde naam gaan."],
      providers: WHERE_NL
    }
  }),
  http_redirect_not_https: guide({
    why: "Following the redirects from the plain HTTP address does not end on a secure page: it ends on HTTP, loops, or breaks. Visitors see an unencrypted page or an error.",
    steps: [
      "Follow the redirect chain the report shows and find the hop that goes wrong.",
      "Make every http:// URL redirect to the same path on https:// and make that page answer."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9110"],
    nl: {
      why: "Wie de doorverwijzingen vanaf het gewone HTTP-adres volgt, komt niet op een beveiligde pagina uit: de keten eindigt op HTTP, loopt rond of breekt af. Bezoekers zien een onversleutelde pagina of een foutmelding.",
      steps: [
        "Volg de keten van doorverwijzingen die het rapport toont en zoek de stap die misgaat.",
        "Laat elke http://-URL doorverwijzen naar hetzelfde pad op https:// en zorg dat die pagina antwoordt."
      ],
      providers: WHERE_NL
    }
  }),
  www_inconsistent: guide({
    why: "The www name and the bare name of the domain are set up differently, so visitors who use one of them get weaker protection: no redirect to HTTPS, or no HSTS.",
    steps: [
      "Give www.{domain} the same port 80 setup as {domain}: redirect to https:// on the same name.",
      "Send the same Strict-Transport-Security header on both names' HTTPS answers."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"],
    nl: {
      why: "De www-naam en de kale naam van het domein zijn verschillend ingericht, dus bezoekers die een van beide gebruiken, krijgen zwakkere bescherming: geen doorverwijzing naar HTTPS, of geen HSTS.",
      steps: [
        "Geef www.{domain} dezelfde inrichting op poort 80 als {domain}: doorverwijzen naar https:// op dezelfde naam.",
        "Stuur dezelfde Strict-Transport-Security-header mee met de HTTPS-antwoorden van beide namen."
      ],
      providers: WHERE_NL
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
