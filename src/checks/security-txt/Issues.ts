/**
 * The issues the security.txt check reports: its entries of the issue catalogue (docs/issues.md)
 * and the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  security_txt_missing: e(
    "security",
    "low",
    false,
    "No security.txt",
    "No /.well-known/security.txt says where to report a vulnerability (RFC 9116).",
    nl(
      "Geen security.txt",
      "Er is geen /.well-known/security.txt die zegt waar een kwetsbaarheid gemeld kan worden (RFC 9116)."
    )
  ),
  security_txt_expired: e(
    "security",
    "low",
    false,
    "security.txt expired",
    "The Expires date of the security.txt has passed, so its contacts must be treated as stale (RFC 9116 2.5.5).",
    nl(
      "security.txt verlopen",
      "De Expires-datum van de security.txt is verstreken, dus de contactgegevens gelden als verouderd (RFC 9116 2.5.5)."
    )
  ),
  security_txt_invalid: e(
    "security",
    "low",
    false,
    "security.txt invalid",
    "The security.txt lacks a required field (Contact, Expires), uses a plain-HTTP URI, is not served as text/plain, or its Canonical does not list its own address (RFC 9116).",
    nl(
      "security.txt ongeldig",
      "De security.txt mist een verplicht veld (Contact, Expires), gebruikt een onversleutelde HTTP-link, wordt niet als text/plain geleverd, of de Canonical noemt het eigen adres niet (RFC 9116)."
    )
  ),
  security_txt_legacy_location: e(
    "security",
    "info",
    false,
    "security.txt only at the legacy location",
    "The file is served at /security.txt but not at /.well-known/security.txt, where RFC 9116 3 puts it.",
    nl(
      "security.txt alleen op de oude plek",
      "Het bestand staat op /security.txt maar niet op /.well-known/security.txt, waar RFC 9116 3 het plaatst."
    )
  ),
  security_txt_redirect_elsewhere: e(
    "security",
    "low",
    false,
    "security.txt redirects to another host",
    "The file /.well-known/security.txt redirects off the host (or off HTTPS), so it does not speak for this domain (RFC 9116 3).",
    nl(
      "security.txt stuurt door naar een andere host",
      "/.well-known/security.txt stuurt door buiten de host (of buiten HTTPS), dus het bestand spreekt niet voor dit domein (RFC 9116 3)."
    )
  ),
  security_txt_signature_bad: e(
    "security",
    "medium",
    false,
    "security.txt signature does not verify",
    "The security.txt is signed (RFC 9116 2.3) and its signer's key is published where the file says, but the signature does not verify: the file was changed after signing, or the key was not valid when it signed. Readers who check it distrust the file.",
    nl(
      "Handtekening van security.txt klopt niet",
      "De security.txt is ondertekend (RFC 9116 2.3) en de sleutel van de ondertekenaar staat waar het bestand zegt, maar de handtekening klopt niet: het bestand is na het ondertekenen veranderd, of de sleutel was niet geldig toen hij tekende. Wie haar controleert, wantrouwt het bestand."
    )
  ),
  security_txt_signing_key_expired: e(
    "security",
    "low",
    false,
    "security.txt signing key expired",
    "The OpenPGP key that signed the security.txt has expired, so its signature and the key offered for encrypted reports can no longer be relied on.",
    nl(
      "Ondertekeningssleutel van security.txt verlopen",
      "De OpenPGP-sleutel die de security.txt ondertekende is verlopen, dus op de handtekening en op de sleutel voor versleutelde meldingen kan niet meer worden vertrouwd."
    )
  ),
  security_txt_signing_key_expiring: e(
    "security",
    "info",
    false,
    "security.txt signing key expires soon",
    "The OpenPGP key that signed the security.txt expires within 30 days.",
    nl(
      "Ondertekeningssleutel van security.txt verloopt binnenkort",
      "De OpenPGP-sleutel die de security.txt ondertekende verloopt binnen 30 dagen."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  security_txt_missing: {
    impact:
      "Someone who finds a vulnerability has no published way to tell you, so it may go unreported or be published.",
    recommendation:
      "Publish /.well-known/security.txt over HTTPS with at least Contact and Expires (under a year ahead)."
  },
  security_txt_expired: {
    impact: "Researchers are told not to rely on the contacts it lists, so reports may not reach you.",
    recommendation:
      "Check the contacts, set Expires to a date within the next year, and renew it on a schedule."
  },
  security_txt_invalid: {
    impact: "Tools and researchers that follow RFC 9116 ignore or distrust the file.",
    recommendation:
      "Fix the errors the report lists: Contact and Expires present, https URIs, text/plain; charset=utf-8, Canonical naming the file's own URL."
  },
  security_txt_legacy_location: {
    impact: "Tools that look only under /.well-known/ do not find the file.",
    recommendation:
      "Serve the same file at /.well-known/security.txt (the root copy may stay, or redirect to it)."
  },
  security_txt_redirect_elsewhere: {
    impact:
      "A file on another host does not speak for this domain; researchers are told to treat it with suspicion.",
    recommendation: "Serve the file from this host itself, over HTTPS, without a redirect to another host."
  },
  security_txt_signature_bad: {
    impact:
      "Researchers who verify the signature cannot tell your file from a forged one, so they may not trust its contacts.",
    recommendation:
      "Sign the file again after every change (gpg --clearsign), with the key published at its Encryption URL or in your Web Key Directory, and serve the signed output unchanged."
  },
  security_txt_signing_key_expired: {
    impact: "A signature by an expired key proves little, and reports encrypted to it may not reach you.",
    recommendation:
      "Extend the key's expiry (gpg --quick-set-expire) or make a new key, publish it where the file says, and sign the file again."
  },
  security_txt_signing_key_expiring: {
    impact: "When the key expires the signature and the encryption key stop being usable.",
    recommendation:
      "Extend the key's expiry or roll to a new key before it expires, publish it and sign the file again."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
