/**
 * The issues the DANE check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  dane_invalid: e(
    "security",
    "medium",
    true,
    "DANE TLSA does not validate",
    "TLSA records do not match the certificate or are not DNSSEC-signed (RFC 7672).",
    nl(
      "DANE-TLSA valideert niet",
      "TLSA-records passen niet bij het certificaat of zijn niet met DNSSEC ondertekend (RFC 7672)."
    )
  ),
  dane_missing: e(
    "security",
    "low",
    true,
    "No DANE",
    "No TLSA record for the mail servers in a signed zone (RFC 7672).",
    nl("Geen DANE", "Geen TLSA-record voor de mailservers in een ondertekende zone (RFC 7672).")
  )
} satisfies Record<string, Entry>

export const advice = {
  dane_invalid: {
    impact: "DANE-validating senders (for example many European providers) refuse to deliver mail to you.",
    recommendation:
      "Publish TLSA records that match the certificate the server presents (3 1 1 of its public key is the robust choice) before rolling keys."
  },
  dane_missing: {
    impact:
      "Senders that validate DANE cannot authenticate your mail servers and fall back to opportunistic TLS.",
    recommendation:
      "Publish a TLSA record _25._tcp.<mx host> 3 1 1 <SHA-256 of the public key> for each MX; /ai/fix computes it from the certificate your server presents."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
