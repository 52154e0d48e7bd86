/**
 * What a domain owner does about each web-security issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). Headers are set where responses are made (the web server, the application,
 * or a CDN in front of it); the provider notes name the place.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /security-headers/generate"

/** Where a header is added for a site behind each provider. */
const WHERE = {
  cloudflare:
    "Rules > Transform Rules > Modify Response Header adds the header to every response of the zone.",
  "route53-ses":
    "Behind CloudFront, add a response headers policy (CloudFront > Policies > Response headers) to the distribution's behaviours.",
  "generic-dns":
    'On nginx: add_header <Name> "<value>" always; in the server block. On Apache: Header always set <Name> "<value>".'
} as const

/** Where a header is added for a site behind each provider, in Dutch. */
const WHERE_NL = {
  cloudflare:
    "Rules > Transform Rules > Modify Response Header voegt de header toe aan elk antwoord van de zone.",
  "route53-ses":
    "Voeg achter CloudFront een response headers policy (CloudFront > Policies > Response headers) toe aan de behaviours van de distributie.",
  "generic-dns":
    'In nginx: add_header <Name> "<value>" always; in het serverblok. In Apache: Header always set <Name> "<value>".'
} as const

export const guidance = {
  https_missing: guide({
    why: "The web site does not answer over a secure connection with a trusted certificate. Browsers mark it 'Not secure', and anything visitors send or receive can be read and changed on the way.",
    steps: [
      "Get a certificate for the site's names ({domain} and www.{domain}) from a public authority; Let's Encrypt issues them free and renews them automatically.",
      "Configure the web server to answer on port 443 with that certificate and its full chain.",
      "Redirect plain http:// requests to https://.",
      "Scan again: HTTPS should answer with a trusted certificate."
    ],
    providers: {
      cloudflare:
        "With the record proxied (orange cloud), Cloudflare serves HTTPS with its own certificate; set SSL/TLS mode to Full (strict) so the connection to your server is secure too.",
      "route53-ses":
        "Request a free certificate in AWS Certificate Manager and attach it to the CloudFront distribution or load balancer."
    },
    references: ["rfc2818", "rfc9525"],
    nl: {
      why: "De website antwoordt niet via een beveiligde verbinding met een vertrouwd certificaat. Browsers markeren hem als 'Niet veilig', en alles wat bezoekers versturen of ontvangen, kan onderweg worden gelezen en gewijzigd.",
      steps: [
        "Haal een certificaat voor de namen van de site ({domain} en www.{domain}) bij een publieke autoriteit; Let's Encrypt geeft ze gratis uit en vernieuwt ze automatisch.",
        "Stel de webserver zo in dat hij op poort 443 antwoordt met dat certificaat en zijn volledige keten.",
        "Verwijs gewone http://-verzoeken door naar https://.",
        "Scan opnieuw: HTTPS hoort te antwoorden met een vertrouwd certificaat."
      ],
      providers: {
        cloudflare:
          "Met het record geproxied (oranje wolk) biedt Cloudflare HTTPS aan met een eigen certificaat; zet de SSL/TLS-modus op Full (strict), zodat ook de verbinding met je server beveiligd is.",
        "route53-ses":
          "Vraag een gratis certificaat aan in AWS Certificate Manager en koppel het aan de CloudFront-distributie of loadbalancer."
      }
    }
  }),
  https_certificate_invalid: guide({
    why: "Browsers refuse the web site: its certificate is expired, not issued by a trusted authority, or made out for another name. Visitors see a full-page warning.",
    steps: [
      "Read the certificate problem the report names (expired, untrusted issuer, wrong name).",
      "Renew or replace the certificate so it covers every name the site is reached by, and install the full chain.",
      "Set up automatic renewal (ACME, for example certbot or the hosting panel) so it does not expire again."
    ],
    providers: {
      cloudflare:
        "Behind Cloudflare, check SSL/TLS > Edge Certificates; with Full (strict), the certificate on your own server must be valid too (a free Origin CA certificate is enough)."
    },
    references: ["rfc2818", "rfc9525"],
    nl: {
      why: "Browsers weigeren de website: het certificaat is verlopen, niet uitgegeven door een vertrouwde autoriteit of op een andere naam gesteld. Bezoekers zien een waarschuwing over de hele pagina.",
      steps: [
        "Lees het certificaatprobleem dat het rapport noemt (verlopen, onbetrouwbare uitgever, verkeerde naam).",
        "Vernieuw of vervang het certificaat zodat het elke naam dekt waaronder de site bereikbaar is, en installeer de volledige keten.",
        "Stel automatische vernieuwing in (ACME, bijvoorbeeld certbot of het hostingpaneel), zodat het niet opnieuw verloopt."
      ],
      providers: {
        cloudflare:
          "Controleer achter Cloudflare SSL/TLS > Edge Certificates; met Full (strict) moet ook het certificaat op je eigen server geldig zijn (een gratis Origin CA-certificaat volstaat)."
      }
    }
  }),
  hsts_missing: guide({
    why: "Without HSTS a visitor's first request can be intercepted and kept on plain HTTP (a downgrade attack), for example on public Wi-Fi.",
    steps: [
      "Make sure the site and all its subdomains work over HTTPS.",
      "Send the header Strict-Transport-Security: max-age=31536000; includeSubDomains on every HTTPS response.",
      "Start with a short max-age (for example 300) for a day if unsure, then raise it to a year."
    ],
    providers: {
      ...WHERE,
      cloudflare:
        "SSL/TLS > Edge Certificates > HTTP Strict Transport Security (HSTS) enables it with a max-age and includeSubDomains."
    },
    record: "Strict-Transport-Security: max-age=31536000; includeSubDomains",
    generator: GENERATOR,
    references: ["rfc6797"],
    nl: {
      why: "Zonder HSTS kan het eerste verzoek van een bezoeker worden onderschept en op gewone HTTP worden gehouden (een downgrade-aanval), bijvoorbeeld op openbare wifi.",
      steps: [
        "Zorg dat de site en al zijn subdomeinen via HTTPS werken.",
        "Stuur de header Strict-Transport-Security: max-age=31536000; includeSubDomains mee met elk HTTPS-antwoord.",
        "Begin bij twijfel een dag met een korte max-age (bijvoorbeeld 300) en verhoog die daarna naar een jaar."
      ],
      providers: {
        ...WHERE_NL,
        cloudflare:
          "SSL/TLS > Edge Certificates > HTTP Strict Transport Security (HSTS) zet het aan met een max-age en includeSubDomains."
      }
    }
  }),
  hsts_weak: guide({
    why: "HSTS is sent but protects little: a max-age below a year lapses between visits, and without includeSubDomains the subdomains can still be downgraded.",
    steps: [
      "Check that every subdomain serves HTTPS.",
      "Raise max-age to 31536000 (one year) and add includeSubDomains."
    ],
    providers: WHERE,
    record: "Strict-Transport-Security: max-age=31536000; includeSubDomains",
    generator: GENERATOR,
    references: ["rfc6797"],
    nl: {
      why: "HSTS wordt meegestuurd maar beschermt weinig: een max-age onder een jaar verloopt tussen bezoeken door, en zonder includeSubDomains kunnen de subdomeinen nog worden gedowngraded.",
      steps: [
        "Controleer dat elk subdomein HTTPS aanbiedt.",
        "Verhoog max-age naar 31536000 (een jaar) en voeg includeSubDomains toe."
      ],
      providers: WHERE_NL
    }
  }),
  xcto_missing: guide({
    why: "Without this header browsers may guess a file's type and, for example, run an uploaded text file as a script.",
    steps: [
      "Send X-Content-Type-Options: nosniff on every response.",
      "Check that your files are served with correct content types."
    ],
    providers: WHERE,
    record: "X-Content-Type-Options: nosniff",
    generator: GENERATOR,
    references: ["fetch_nosniff"],
    nl: {
      why: "Zonder deze beveiligingsheader kunnen browsers het type van een bestand raden en bijvoorbeeld een geüpload tekstbestand als script uitvoeren.",
      steps: [
        "Stuur X-Content-Type-Options: nosniff mee met elk antwoord.",
        "Controleer dat je bestanden met het juiste content type worden aangeboden."
      ],
      providers: WHERE_NL
    }
  }),
  frame_protection_missing: guide({
    why: "Any other site can show your pages inside a frame and trick visitors into clicking buttons they cannot see (clickjacking).",
    steps: [
      "Send Content-Security-Policy: frame-ancestors 'self' (or 'none' if the site is never framed).",
      "Also send X-Frame-Options: SAMEORIGIN for older browsers."
    ],
    providers: WHERE,
    record: "Content-Security-Policy: frame-ancestors 'self'",
    generator: GENERATOR,
    references: ["csp3", "rfc7034"],
    nl: {
      why: "Elke andere site kan je pagina's in een frame tonen en bezoekers verleiden op knoppen te klikken die ze niet zien (clickjacking).",
      steps: [
        "Stuur Content-Security-Policy: frame-ancestors 'self' mee (of 'none' als de site nooit in een frame staat).",
        "Stuur voor oudere browsers ook X-Frame-Options: SAMEORIGIN mee."
      ],
      providers: WHERE_NL
    }
  }),
  referrer_policy_missing: guide({
    why: "Without a referrer policy the full address of your pages, including search terms or tokens in it, may be sent to every other site a visitor goes to from them.",
    steps: ["Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer) on every response."],
    providers: WHERE,
    record: "Referrer-Policy: strict-origin-when-cross-origin",
    generator: GENERATOR,
    references: ["referrer_policy"],
    nl: {
      why: "Zonder referrer policy kan het volledige adres van je pagina's, inclusief zoektermen of tokens erin, worden meegestuurd naar elke andere site waar een bezoeker vandaar naartoe gaat.",
      steps: [
        "Stuur Referrer-Policy: strict-origin-when-cross-origin (of no-referrer) mee met elk antwoord."
      ],
      providers: WHERE_NL
    }
  }),
  csp_missing: guide({
    why: "Without a Content-Security-Policy a script injected into a page (through a comment field or a compromised third-party script) runs with full rights: it can steal sessions and change what visitors see.",
    steps: [
      "List where the site loads scripts, styles, images and fonts from.",
      "Send a policy in report-only mode first (Content-Security-Policy-Report-Only) that allows exactly those sources, with object-src 'none' and base-uri 'self'.",
      "Fix what the browser console reports as blocked, for a week or two.",
      "Then send the same policy as Content-Security-Policy."
    ],
    providers: WHERE,
    record:
      "Content-Security-Policy: default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'",
    generator: GENERATOR,
    references: ["csp3"],
    nl: {
      why: "Zonder Content-Security-Policy draait een script dat in een pagina is geïnjecteerd (via een reactieveld of een gekaapt script van derden) met volledige rechten: het kan sessies stelen en veranderen wat bezoekers zien.",
      steps: [
        "Zet op een rij waarvandaan de site scripts, stylesheets, afbeeldingen en lettertypen laadt.",
        "Stuur eerst een policy in report-only-modus (Content-Security-Policy-Report-Only) die precies die bronnen toestaat, met object-src 'none' en base-uri 'self'.",
        "Los een week of twee op wat de browserconsole als geblokkeerd meldt.",
        "Stuur daarna dezelfde policy als Content-Security-Policy."
      ],
      providers: WHERE_NL
    }
  }),
  csp_weak: guide({
    why: "The Content-Security-Policy leaves gaps attackers use: it allows eval, plug-ins (object-src), or changing the page's base address.",
    steps: [
      "Remove 'unsafe-eval' from script-src (update code that uses eval or new Function).",
      "Add object-src 'none' and base-uri 'self'."
    ],
    providers: WHERE,
    generator: GENERATOR,
    references: ["csp3"],
    nl: {
      why: "De Content-Security-Policy laat gaten die aanvallers gebruiken: hij staat eval toe, plug-ins (object-src) of het wijzigen van het basisadres van de pagina.",
      steps: [
        "Verwijder 'unsafe-eval' uit script-src (pas code aan die eval of new Function gebruikt).",
        "Voeg object-src 'none' en base-uri 'self' toe."
      ],
      providers: WHERE_NL
    }
  }),
  csp_unsafe: guide({
    why: "The Content-Security-Policy does not restrict scripts (it allows inline scripts without nonces or hashes, or scripts from any host), so an injected script still runs: the policy gives almost no protection.",
    steps: [
      "Move inline scripts to files, or give each a nonce (a fresh random value per response) or a hash in script-src.",
      "Replace wildcard sources (*, https:) with the exact hosts you load scripts from; for loaders, use 'strict-dynamic' with a nonce.",
      "Remove 'unsafe-inline' from script-src, test in report-only mode, then enforce."
    ],
    providers: WHERE,
    generator: GENERATOR,
    references: ["csp3"],
    nl: {
      why: "De Content-Security-Policy beperkt scripts niet (hij staat inline scripts zonder nonces of hashes toe, of scripts van elke host), dus een geïnjecteerd script draait nog steeds: de policy beschermt bijna niets.",
      steps: [
        "Verplaats inline scripts naar bestanden, of geef elk een nonce (per antwoord een nieuwe willekeurige waarde) of een hash in script-src.",
        "Vervang wildcardbronnen (*, https:) door de precieze hosts waarvandaan je scripts laadt; gebruik voor loaders 'strict-dynamic' met een nonce.",
        "Verwijder 'unsafe-inline' uit script-src, test in report-only-modus en handhaaf daarna."
      ],
      providers: WHERE_NL
    }
  }),
  cookies_insecure: guide({
    why: "The site sets cookies that are not protected: without Secure a cookie is also sent over plain HTTP, where anyone on the network can read it; a session cookie without HttpOnly can be read by any script injected into the page, which then takes over the session.",
    steps: [
      "Add the Secure attribute to every cookie the site sets.",
      "Add HttpOnly to session and login cookies (scripts do not need to read them).",
      "Add SameSite=Lax (or Strict) so other sites cannot send the cookie along with forged requests.",
      "Where possible, name the session cookie __Host-<name> with Path=/ and no Domain: browsers then refuse it unless it is Secure and bound to this host."
    ],
    providers: {
      cloudflare:
        "Set the attributes in the application that sets the cookie; a Cloudflare Worker or Transform Rule can rewrite Set-Cookie where the application cannot be changed.",
      "route53-ses":
        "Set the attributes in the application; a CloudFront Function on viewer response can add them to Set-Cookie.",
      "generic-dns":
        "In the application's session settings (for example PHP session.cookie_secure and session.cookie_httponly), or on nginx: proxy_cookie_flags ~ secure httponly samesite=lax; in the proxied location."
    },
    record: "Set-Cookie: __Host-session=<value>; Path=/; Secure; HttpOnly; SameSite=Lax",
    references: ["https://datatracker.ietf.org/doc/draft-ietf-httpbis-rfc6265bis/"],
    nl: {
      why: "De site zet cookies die niet beschermd zijn: zonder Secure gaat een cookie ook over gewone HTTP, waar iedereen op het netwerk hem kan lezen; een sessiecookie zonder HttpOnly kan worden gelezen door elk script dat in de pagina is geïnjecteerd, dat dan de sessie overneemt.",
      steps: [
        "Voeg het attribuut Secure toe aan elke cookie die de site zet.",
        "Voeg HttpOnly toe aan sessie- en inlogcookies (scripts hoeven ze niet te lezen).",
        "Voeg SameSite=Lax (of Strict) toe, zodat andere sites de cookie niet met vervalste verzoeken kunnen meesturen.",
        "Noem de sessiecookie waar mogelijk __Host-<naam> met Path=/ en zonder Domain: browsers weigeren hem dan, tenzij hij Secure is en aan deze host gebonden."
      ],
      providers: {
        cloudflare:
          "Zet de attributen in de applicatie die de cookie zet; een Cloudflare Worker of Transform Rule kan Set-Cookie herschrijven waar de applicatie niet aan te passen is.",
        "route53-ses":
          "Zet de attributen in de applicatie; een CloudFront Function op de viewer response kan ze aan Set-Cookie toevoegen.",
        "generic-dns":
          "In de sessie-instellingen van de applicatie (bijvoorbeeld PHP session.cookie_secure en session.cookie_httponly), of in nginx: proxy_cookie_flags ~ secure httponly samesite=lax; in de geproxiede location."
      }
    }
  }),
  sri_missing: guide({
    why: "The page loads a script from another site without an integrity check. If that site or its content network is compromised, the script it serves runs in your page with your visitors' data and sessions.",
    steps: [
      "For each <script src> from another site, compute the file's hash (openssl dgst -sha384 -binary FILE | openssl base64 -A).",
      'Add integrity="sha384-<hash>" and crossorigin="anonymous" to the element, and load it over https.',
      "Pin the version in the URL, so the file and its hash do not change underneath you; or host the script on your own site."
    ],
    providers: {},
    record:
      '<script src="https://cdn.example/lib-1.2.3.js" integrity="sha384-..." crossorigin="anonymous"></script>',
    references: ["https://www.w3.org/TR/SRI/"],
    nl: {
      why: "De pagina laadt een script van een andere site zonder integriteitscontrole. Wordt die site of zijn contentnetwerk gekaapt, dan draait het script dat ze leveren in jouw pagina, met de gegevens en sessies van je bezoekers.",
      steps: [
        "Bereken voor elke <script src> van een andere site de hash van het bestand (openssl dgst -sha384 -binary BESTAND | openssl base64 -A).",
        'Voeg integrity="sha384-<hash>" en crossorigin="anonymous" toe aan het element en laad het via https.',
        "Zet de versie vast in de URL, zodat het bestand en zijn hash niet onder je handen veranderen; of host het script op je eigen site."
      ]
    }
  }),
  cors_credentials_any_origin: guide({
    why: "The site tells browsers that any other web site may read its pages with the visitor's cookies: it echoes whatever Origin asks, with Access-Control-Allow-Credentials: true. A malicious page a signed-in visitor opens can read their data.",
    steps: [
      "Find where the server sets Access-Control-Allow-Origin from the request's Origin (often a CORS middleware configured to allow all).",
      "Allow only a fixed list of trusted origins, and send Access-Control-Allow-Credentials only for those that need it.",
      "Scan again: the page asked from an unknown origin should not echo it."
    ],
    providers: WHERE,
    references: ["https://fetch.spec.whatwg.org/#http-cors-protocol"],
    nl: {
      why: "De site vertelt browsers dat elke andere website zijn pagina's mag lezen met de cookies van de bezoeker: hij herhaalt elke Origin die erom vraagt, met Access-Control-Allow-Credentials: true. Een kwaadaardige pagina die een ingelogde bezoeker opent, kan diens gegevens lezen.",
      steps: [
        "Zoek waar de server Access-Control-Allow-Origin overneemt uit de Origin van het verzoek (vaak een CORS-middleware die alles toestaat).",
        "Sta alleen een vaste lijst vertrouwde origins toe, en stuur Access-Control-Allow-Credentials alleen mee voor de origins die het nodig hebben.",
        "Scan opnieuw: een verzoek vanaf een onbekende origin hoort die origin niet terug te krijgen."
      ],
      providers: WHERE_NL
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
