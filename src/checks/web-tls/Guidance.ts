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
    references: REFERENCES
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
    references: REFERENCES
  }),
  web_tls_key_exchange_weak: guide({
    why: "The keys of each connection are agreed with a group that is too small or unusual; with enough effort an attacker could recover them.",
    steps: [
      "Prefer ECDHE key exchange with X25519, secp256r1 or secp384r1 (nginx: ssl_ecdh_curve X25519:prime256v1:secp384r1).",
      "If DHE must stay, configure an RFC 7919 group of 3072 bits or more (nginx: ssl_dhparam with ffdhe3072), or remove the DHE suites.",
      "Reload the server and scan again."
    ],
    references: ["ncsc_tls", "rfc7919"]
  }),
  web_tls_certificate_weak: guide({
    why: "The web certificate uses a key or signature too weak to be trusted for long; browsers already refuse SHA-1 signed certificates.",
    steps: [
      "Create a new key: ECDSA P-256, or RSA of 3072 bits (2048 is the minimum).",
      "Have a certificate issued for it, signed with SHA-256 (every public authority does so today), and install it with its chain.",
      "Scan again."
    ],
    references: ["ncsc_tls", "rfc9525"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
