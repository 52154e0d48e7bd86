/**
 * What a domain owner does about each mail-transport TLS issue (checks/Declaration.ts `Guidance`,
 * docs/guidance.md): settings of the mail servers themselves.
 */
import { guide, type Guidance } from "../Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  starttls_missing: guide({
    why: "A mail server that receives your mail does not offer encryption (STARTTLS with TLS 1.2 or later), so mail to you crosses the internet readable and changeable by anyone on the way.",
    steps: [
      "Find which mail server the report names.",
      "Install a certificate for its host name and enable STARTTLS, allowing TLS 1.2 and 1.3.",
      "Test from outside (scan again): the server must offer STARTTLS after EHLO."
    ],
    providers: {
      "google-workspace":
        "Google's mail servers always offer TLS: an MX without it is a server of your own or of another provider.",
      "microsoft-365":
        "Exchange Online always offers TLS: an MX without it is a server of your own or of another provider.",
      "generic-dns":
        "On Postfix: smtpd_tls_cert_file, smtpd_tls_key_file, smtpd_tls_security_level = may, smtpd_tls_mandatory_protocols = >=TLSv1.2."
    },
    references: ["rfc3207", "rfc8461"]
  }),
  mx_cert_invalid: guide({
    why: "A mail server's certificate is expired, not issued by a trusted authority or does not name the server. Senders that insist on security (MTA-STS, DANE) refuse to deliver to it; others encrypt without knowing who they talk to.",
    steps: [
      "Find the mail server and the certificate problem the report names.",
      "Install a certificate from a public authority (Let's Encrypt is free) that names the server's host name exactly as in the MX record.",
      "Send the full chain (the server certificate and its intermediates).",
      "Set up automatic renewal, and reload the mail server after each renewal."
    ],
    references: ["rfc9525", "rfc8461"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
