/**
 * The issues the SMTP TLS check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry } from "../Declaration.ts"

export const issues = {
  starttls_missing: e(
    "security",
    "high",
    false,
    "Mail server without STARTTLS",
    "A mail server does not offer STARTTLS with TLS 1.2 or later, so mail travels in plaintext (RFC 3207)."
  ),
  mx_cert_invalid: e(
    "security",
    "medium",
    false,
    "Mail server certificate is not valid",
    "A mail server's certificate is expired, untrusted or does not name the host."
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
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
