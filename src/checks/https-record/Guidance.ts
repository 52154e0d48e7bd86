/** What a domain owner does about an HTTPS record that does not match the server (docs/guidance.md). */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  https_record_mismatch: guide({
    why: "The domain publishes an HTTPS record in DNS that promises something the web server does not do: a protocol (such as HTTP/2 or HTTP/3) it does not speak, or an address that is not the site's. Browsers that read the record try that first and must fall back, which makes the site slower or unreachable for some visitors.",
    steps: [
      "Read the report: it names the protocol that was not negotiated or the hint that is not an address of the site.",
      "Either enable the protocol on the web server (for HTTP/2 on nginx: listen 443 ssl http2) or remove it from the record's alpn list.",
      "Make ipv4hint and ipv6hint equal to the site's A and AAAA records, or leave the hints out: they are optional.",
      "Scan again: every alpn protocol should be negotiated and every hint be an address of the site."
    ],
    providers: {
      cloudflare:
        "Cloudflare publishes HTTPS records for proxied names itself; a manual HTTPS record in the DNS tab overrides it, so delete or correct it.",
      "generic-dns":
        'In the zone: @ HTTPS 1 . alpn="h2,http/1.1" ipv4hint=<the A address>; most DNS panels call the type HTTPS.'
    },
    record: '@ HTTPS 1 . alpn="h2,http/1.1"',
    references: ["https://www.rfc-editor.org/rfc/rfc9460"],
    nl: {
      why: "Het domein publiceert in DNS een HTTPS-record dat iets belooft wat de webserver niet doet: een protocol (zoals HTTP/2 of HTTP/3) dat hij niet spreekt, of een adres dat niet van de site is. Browsers die het record lezen, proberen dat eerst en moeten terugvallen; de site wordt daardoor trager of voor sommige bezoekers onbereikbaar.",
      steps: [
        "Lees het rapport: het noemt het protocol dat niet tot stand kwam of de hint die geen adres van de site is.",
        "Zet het protocol aan op de webserver (voor HTTP/2 in nginx: listen 443 ssl http2) of haal het uit de alpn-lijst van het record.",
        "Maak ipv4hint en ipv6hint gelijk aan de A- en AAAA-records van de site, of laat de hints weg: ze zijn optioneel.",
        "Scan opnieuw: elk alpn-protocol hoort tot stand te komen en elke hint hoort een adres van de site te zijn."
      ],
      providers: {
        cloudflare:
          "Cloudflare publiceert zelf HTTPS-records voor geproxiede namen; een handmatig HTTPS-record in het DNS-tabblad gaat daarboven, dus verwijder of corrigeer het.",
        "generic-dns":
          'In de zone: @ HTTPS 1 . alpn="h2,http/1.1" ipv4hint=<het A-adres>; de meeste DNS-panelen noemen het type HTTPS.'
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
