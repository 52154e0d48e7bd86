/**
 * What a domain owner does about each HTTPS transport issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). TLS is set where connections end: the web server, the load balancer or the
 * CDN in front of it; the provider notes name the place.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const REFERENCES = ["ncsc_tls", "rfc8446", "rfc8996"]

export const guidance = {
  web_tls_version_outdated: guide({
    why: "The web site still accepts TLS 1.0 or 1.1, versions from 1999 and 2006 that browsers no longer use. An attacker who can interfere with a visitor's connection may push it down to them.",
    steps: [
      "Find where HTTPS connections to {domain} end: the web server, a load balancer or a CDN.",
      "Allow only TLS 1.2 and TLS 1.3 there (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3).",
      "Reload the server and scan again: TLS 1.0 and 1.1 should be refused."
    ],
    providers: {
      cloudflare: "SSL/TLS > Edge Certificates > Minimum TLS Version: choose TLS 1.2.",
      "route53-ses":
        "On CloudFront choose the security policy TLSv1.2_2021; on an Application Load Balancer, ELBSecurityPolicy-TLS13-1-2-2021-06."
    },
    references: REFERENCES,
    nl: {
      why: "De website accepteert nog TLS 1.0 of 1.1, versies uit 1999 en 2006 die browsers niet meer gebruiken. Een aanvaller die zich in de verbinding van een bezoeker kan mengen, kan die ernaar terugdwingen.",
      steps: [
        "Zoek uit waar HTTPS-verbindingen naar {domain} eindigen: de webserver, een loadbalancer of een CDN.",
        "Sta daar alleen TLS 1.2 en TLS 1.3 toe (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3).",
        "Herlaad de server en scan opnieuw: TLS 1.0 en 1.1 horen te worden geweigerd."
      ],
      providers: {
        cloudflare: "SSL/TLS > Edge Certificates > Minimum TLS Version: kies TLS 1.2.",
        "route53-ses":
          "Kies op CloudFront het beveiligingsbeleid TLSv1.2_2021; op een Application Load Balancer ELBSecurityPolicy-TLS13-1-2-2021-06."
      }
    }
  }),
  web_tls_cipher_weak: guide({
    why: "The web server agrees to encryption that is weak or has no forward secrecy for any client that asks for it, so recorded traffic could be decrypted later or even read on the way.",
    steps: [
      "Limit the cipher suites to ECDHE with AES-GCM or ChaCha20-Poly1305; keep ECDHE with AES-CBC only if very old clients must still connect.",
      "Remove suites with RSA key exchange, 3DES, RC4, NULL or EXPORT (nginx: ssl_ciphers; Apache: SSLCipherSuite) and let the server pick its own order (ssl_prefer_server_ciphers on).",
      "Reload the server and scan again."
    ],
    providers: {
      cloudflare:
        "SSL/TLS > Edge Certificates > Cipher suites (Advanced Certificate Manager): choose the Modern or Compatible preset.",
      "route53-ses":
        "Choose a current security policy on the CloudFront distribution or load balancer listener."
    },
    references: REFERENCES,
    nl: {
      why: "De webserver stemt in met versleuteling die zwak is of geen forward secrecy heeft, voor elke client die erom vraagt. Opgenomen verkeer kan dan later worden ontsleuteld of zelfs onderweg worden gelezen.",
      steps: [
        "Beperk de cipher suites tot ECDHE met AES-GCM of ChaCha20-Poly1305; houd ECDHE met AES-CBC alleen als heel oude clients nog moeten kunnen verbinden.",
        "Verwijder suites met RSA-sleuteluitwisseling, 3DES, RC4, NULL of EXPORT (nginx: ssl_ciphers; Apache: SSLCipherSuite) en laat de server zijn eigen volgorde kiezen (ssl_prefer_server_ciphers on).",
        "Herlaad de server en scan opnieuw."
      ],
      providers: {
        cloudflare:
          "SSL/TLS > Edge Certificates > Cipher suites (Advanced Certificate Manager): kies de voorinstelling Modern of Compatible.",
        "route53-ses":
          "Kies een actueel beveiligingsbeleid op de CloudFront-distributie of de listener van de loadbalancer."
      }
    }
  }),
  web_tls_key_exchange_weak: guide({
    why: "The keys of each connection are agreed with a group that is too small or unusual; with enough effort an attacker could recover them.",
    steps: [
      "Prefer ECDHE key exchange with X25519, secp256r1 or secp384r1 (nginx: ssl_ecdh_curve X25519:prime256v1:secp384r1).",
      "If DHE must stay, configure an RFC 7919 group of 3072 bits or more (nginx: ssl_dhparam with ffdhe3072), or remove the DHE suites.",
      "Reload the server and scan again."
    ],
    references: ["ncsc_tls", "rfc7919"],
    nl: {
      why: "De sleutels van elke verbinding worden afgesproken met een groep die te klein of ongebruikelijk is; met genoeg moeite kan een aanvaller ze achterhalen.",
      steps: [
        "Geef de voorkeur aan ECDHE-sleuteluitwisseling met X25519, secp256r1 of secp384r1 (nginx: ssl_ecdh_curve X25519:prime256v1:secp384r1).",
        "Moet DHE blijven, stel dan een groep uit RFC 7919 van 3072 bits of meer in (nginx: ssl_dhparam met ffdhe3072), of verwijder de DHE-suites.",
        "Herlaad de server en scan opnieuw."
      ]
    }
  }),
  web_tls_ems_missing: guide({
    why: "The web server still speaks TLS 1.2 without Extended Master Secret, so a TLS 1.2 session's keys are not tied to the handshake that made them; an attacker in the middle can then join two sessions (the triple handshake attack).",
    steps: [
      "Find where HTTPS connections to {domain} end: the web server, a load balancer or a CDN.",
      "Update its TLS library if it is old (OpenSSL 1.1.0 and later negotiate Extended Master Secret by default) and remove any setting that turns it off (nginx: ssl_conf_command Options -ExtendedMasterSecret).",
      "Or accept TLS 1.3 only (nginx: ssl_protocols TLSv1.3), where the protection is built in. Reload the server and scan again."
    ],
    references: ["ncsc_tls", "rfc7627"],
    nl: {
      why: "De webserver spreekt nog TLS 1.2 zonder Extended Master Secret, zodat de sleutels van een TLS 1.2-sessie niet vastzitten aan de handshake die ze maakte; een aanvaller ertussen kan dan twee sessies aan elkaar koppelen (de triple-handshake-aanval).",
      steps: [
        "Zoek uit waar HTTPS-verbindingen naar {domain} eindigen: de webserver, een loadbalancer of een CDN.",
        "Werk de TLS-bibliotheek bij als die oud is (OpenSSL 1.1.0 en later spreken Extended Master Secret standaard af) en verwijder elke instelling die het uitzet (nginx: ssl_conf_command Options -ExtendedMasterSecret).",
        "Of accepteer alleen TLS 1.3 (nginx: ssl_protocols TLSv1.3), waar de bescherming ingebouwd is. Herlaad de server en scan opnieuw."
      ]
    }
  }),
  web_tls_certificate_weak: guide({
    why: "The web certificate uses a key or signature too weak to be trusted for long; browsers already refuse SHA-1 signed certificates.",
    steps: [
      "Create a new key: ECDSA P-256, or RSA of 3072 bits (the 2025 guidelines rate 2048 phase out).",
      "Have a certificate issued for it, signed with SHA-256 (every public authority does so today), and install it with its chain.",
      "Scan again."
    ],
    references: ["ncsc_tls", "rfc9525"],
    nl: {
      why: "Het webcertificaat gebruikt een sleutel of handtekening die te zwak is om lang te vertrouwen; browsers weigeren met SHA-1 ondertekende certificaten al.",
      steps: [
        "Maak een nieuwe sleutel: ECDSA P-256, of RSA van 3072 bits (de richtlijnen van 2025 noemen 2048 uit te faseren).",
        "Laat er een certificaat voor uitgeven, ondertekend met SHA-256 (elke publieke autoriteit doet dat tegenwoordig), en installeer het met zijn keten.",
        "Scan opnieuw."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
