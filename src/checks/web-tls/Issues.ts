/**
 * The issues the HTTPS transport check reports: its entries of the issue catalogue
 * (docs/issues.md) and the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  web_tls_version_outdated: e(
    "security",
    "medium",
    false,
    "Web server accepts TLS 1.0 or 1.1",
    "TLS 1.0 and 1.1 are deprecated (RFC 8996) and rated phase out by the NCSC-NL TLS guidelines; only TLS 1.2 and 1.3 should be accepted.",
    nl(
      "Webserver accepteert TLS 1.0 of 1.1",
      "TLS 1.0 en 1.1 zijn verouderd (RFC 8996) en volgens de NCSC-TLS-richtlijnen uit te faseren; accepteer alleen TLS 1.2 en 1.3."
    )
  ),
  web_tls_cipher_weak: e(
    "security",
    "medium",
    false,
    "Web server accepts weak cipher suites",
    "The web server accepts cipher suites the NCSC-NL TLS guidelines rate phase out (RSA key exchange, 3DES) or insufficient (RC4, NULL, EXPORT, DES).",
    nl(
      "Webserver accepteert zwakke cipher suites",
      "De webserver accepteert cipher suites die de NCSC-TLS-richtlijnen uit te faseren (RSA-sleuteluitwisseling, 3DES) of onvoldoende (RC4, NULL, EXPORT, DES) noemen."
    )
  ),
  web_tls_key_exchange_weak: e(
    "security",
    "medium",
    false,
    "Web server uses a weak key exchange",
    "The web server's key exchange uses a finite-field group under 3072 bits or a curve the NCSC-NL TLS guidelines do not rate good (RFC 7919, RFC 8422).",
    nl(
      "Webserver gebruikt een zwakke sleuteluitwisseling",
      "De sleuteluitwisseling gebruikt een eindige-veldgroep onder 3072 bits of een curve die de NCSC-TLS-richtlijnen niet goed noemen."
    )
  ),
  web_tls_ems_missing: e(
    "security",
    "medium",
    false,
    "Web server's TLS 1.2 lacks Extended Master Secret",
    "The web server accepts TLS 1.2 but does not negotiate Extended Master Secret (RFC 7627), a precondition of a secure TLS 1.2 configuration in the NCSC-NL TLS guidelines (2025) that internet.nl scores.",
    nl(
      "TLS 1.2 van de webserver zonder Extended Master Secret",
      "De webserver accepteert TLS 1.2 maar spreekt geen Extended Master Secret af (RFC 7627), volgens de NCSC-TLS-richtlijnen (2025) een voorwaarde voor veilig TLS 1.2."
    )
  ),
  web_tls_certificate_weak: e(
    "security",
    "medium",
    false,
    "Web certificate has a weak key or signature",
    "The web certificate's key (RSA under 3072 bits, an unusual curve) or signature (SHA-1, MD5) is below what the NCSC-NL TLS guidelines rate sufficient.",
    nl(
      "Webcertificaat met zwakke sleutel of handtekening",
      "De sleutel (RSA onder 3072 bits, een ongebruikelijke curve) of handtekening (SHA-1, MD5) van het webcertificaat is minder dan wat de NCSC-TLS-richtlijnen voldoende noemen."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  web_tls_version_outdated: {
    impact:
      "Old protocol versions have known weaknesses (BEAST, POODLE-style downgrades) and fail compliance audits.",
    recommendation:
      "Accept only TLS 1.2 and 1.3 (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3)."
  },
  web_tls_cipher_weak: {
    impact: "A weak suite offers no forward secrecy or breakable encryption to any client that asks for it.",
    recommendation:
      "Offer only ECDHE suites with AES-GCM or ChaCha20-Poly1305 (and, for old clients, ECDHE with AES-CBC), and let the server choose the order."
  },
  web_tls_key_exchange_weak: {
    impact: "A small finite-field group (Logjam) weakens every session's keys.",
    recommendation:
      "Prefer ECDHE with X25519 or secp256r1/secp384r1; if DHE stays, use an RFC 7919 group of 3072 bits or more."
  },
  web_tls_ems_missing: {
    impact:
      "Without Extended Master Secret a TLS 1.2 session's keys are not bound to its handshake: the triple handshake attack lets a man in the middle carry a client's authentication into a session of its own.",
    recommendation:
      "Update the TLS library (OpenSSL 1.1.0 and later negotiate EMS by default) and remove any setting that turns it off (OpenSSL: Options -ExtendedMasterSecret), or accept TLS 1.3 only."
  },
  web_tls_certificate_weak: {
    impact: "A short key or a SHA-1 signature can be forged or broken; browsers reject SHA-1 certificates.",
    recommendation:
      "Issue a new certificate with an ECDSA P-256 key or an RSA key of 3072 bits or more (the 2025 guidelines rate RSA 2048 phase out), signed with SHA-256."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
