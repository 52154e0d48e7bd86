/**
 * The issues the SMTP TLS check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  starttls_missing: e(
    "security",
    "high",
    false,
    "Mail server without STARTTLS",
    "A mail server does not offer STARTTLS with TLS 1.2 or later, so mail travels in plaintext (RFC 3207).",
    nl(
      "Mailserver zonder STARTTLS",
      "Een mailserver biedt geen STARTTLS met TLS 1.2 of hoger, dus mail reist onversleuteld (RFC 3207)."
    )
  ),
  mx_cert_invalid: e(
    "security",
    "medium",
    false,
    "Mail server certificate is not valid",
    "A mail server's certificate is expired, untrusted or does not name the host.",
    nl(
      "Certificaat van een mailserver is niet geldig",
      "Het certificaat van een mailserver is verlopen, niet vertrouwd of noemt de host niet."
    )
  ),
  mx_tls_version_outdated: e(
    "security",
    "low",
    false,
    "Mail server accepts TLS 1.0 or 1.1",
    "A mail server still accepts TLS 1.0 or 1.1, deprecated by RFC 8996 and rated phase out by the NCSC-NL TLS guidelines.",
    nl(
      "Mailserver accepteert TLS 1.0 of 1.1",
      "Een mailserver accepteert nog TLS 1.0 of 1.1, verouderd volgens RFC 8996 en volgens de NCSC-TLS-richtlijnen uit te faseren."
    )
  ),
  mx_tls_cipher_weak: e(
    "security",
    "medium",
    false,
    "Mail server accepts weak cipher suites",
    "A mail server accepts cipher suites the NCSC-NL TLS guidelines rate phase out (RSA key exchange, 3DES) or insufficient (RC4, NULL, EXPORT, DES).",
    nl(
      "Mailserver accepteert zwakke cipher suites",
      "Een mailserver accepteert cipher suites die de NCSC-TLS-richtlijnen uit te faseren (RSA-sleuteluitwisseling, 3DES) of onvoldoende (RC4, NULL, EXPORT, DES) noemen."
    )
  ),
  mx_tls_key_exchange_weak: e(
    "security",
    "low",
    false,
    "Mail server uses a weak key exchange",
    "A mail server's key exchange uses a finite-field group under 3072 bits or a curve the NCSC-NL TLS guidelines do not rate good (RFC 7919, RFC 8422).",
    nl(
      "Mailserver gebruikt een zwakke sleuteluitwisseling",
      "De sleuteluitwisseling van een mailserver gebruikt een eindige-veldgroep onder 3072 bits of een curve die de NCSC-TLS-richtlijnen niet goed noemen."
    )
  ),
  mx_tls_ems_missing: e(
    "security",
    "low",
    false,
    "Mail server's TLS 1.2 lacks Extended Master Secret",
    "A mail server accepts TLS 1.2 but does not negotiate Extended Master Secret (RFC 7627), a precondition of a secure TLS 1.2 configuration in the NCSC-NL TLS guidelines (2025) that internet.nl scores.",
    nl(
      "TLS 1.2 van een mailserver zonder Extended Master Secret",
      "Een mailserver accepteert TLS 1.2 maar spreekt geen Extended Master Secret af (RFC 7627), volgens de NCSC-TLS-richtlijnen (2025) een voorwaarde voor veilig TLS 1.2."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  starttls_missing: {
    impact: "Mail to you travels in plaintext and can be read or altered on the way.",
    recommendation: "Enable STARTTLS on every MX with a certificate for its host name, TLS 1.2 or later."
  },
  mx_cert_invalid: {
    impact:
      "Senders enforcing MTA-STS or DANE refuse to deliver; others fall back to unauthenticated encryption.",
    recommendation:
      "Install a certificate from a public CA that names the MX host, renew it before expiry, and send the full chain."
  },
  mx_tls_version_outdated: {
    impact:
      "A sender that still speaks only an old version gets weaker encryption than it could; audits flag the server.",
    recommendation:
      "Accept only TLS 1.2 and 1.3 (Postfix: smtpd_tls_protocols = >=TLSv1.2 and smtpd_tls_mandatory_protocols = >=TLSv1.2)."
  },
  mx_tls_cipher_weak: {
    impact:
      "A sender that picks a weak suite sends mail with breakable encryption or without forward secrecy.",
    recommendation:
      "Offer only ECDHE suites with AES-GCM or ChaCha20-Poly1305 (and ECDHE with AES-CBC for old senders); Postfix: smtpd_tls_ciphers = high with tls_high_cipherlist set so."
  },
  mx_tls_key_exchange_weak: {
    impact: "A small finite-field group (Logjam) weakens the keys of every session.",
    recommendation:
      "Prefer ECDHE with X25519 or secp256r1/secp384r1; if DHE stays, use an RFC 7919 group of 3072 bits or more (Postfix: smtpd_tls_dh1024_param_file)."
  },
  mx_tls_ems_missing: {
    impact:
      "Without Extended Master Secret a TLS 1.2 session's keys are not bound to its handshake (the triple handshake attack).",
    recommendation:
      "Update the mail server's TLS library (OpenSSL 1.1.0 and later negotiate EMS by default) and remove any setting that turns it off (Postfix: tls_ssl_options; an OpenSSL configuration: Options -ExtendedMasterSecret)."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
