/**
 * What a domain owner does about each mail-transport TLS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): settings of the mail servers themselves.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
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
    references: ["rfc3207", "rfc8461"],
    nl: {
      why: "Een mailserver die je mail ontvangt, biedt geen versleuteling aan (STARTTLS met TLS 1.2 of nieuwer), dus mail aan jou gaat leesbaar en te wijzigen over internet, voor iedereen onderweg.",
      steps: [
        "Zoek op welke mailserver het rapport noemt.",
        "Installeer een certificaat voor zijn hostnaam en zet STARTTLS aan, met TLS 1.2 en 1.3.",
        "Test van buitenaf (scan opnieuw): de server moet na EHLO STARTTLS aanbieden."
      ],
      providers: {
        "google-workspace":
          "De mailservers van Google bieden altijd TLS aan: een MX zonder TLS is een server van jezelf of van een andere provider.",
        "microsoft-365":
          "Exchange Online biedt altijd TLS aan: een MX zonder TLS is een server van jezelf of van een andere provider.",
        "generic-dns":
          "In Postfix: smtpd_tls_cert_file, smtpd_tls_key_file, smtpd_tls_security_level = may, smtpd_tls_mandatory_protocols = >=TLSv1.2."
      }
    }
  }),
  mx_cert_invalid: guide({
    why: "A mail server's certificate is expired, not issued by a trusted authority or does not name the server. Senders that insist on security (MTA-STS, DANE) refuse to deliver to it; others encrypt without knowing who they talk to.",
    steps: [
      "Find the mail server and the certificate problem the report names.",
      "Install a certificate from a public authority (Let's Encrypt is free) that names the server's host name exactly as in the MX record.",
      "Send the full chain (the server certificate and its intermediates).",
      "Set up automatic renewal, and reload the mail server after each renewal."
    ],
    references: ["rfc9525", "rfc8461"],
    nl: {
      why: "Het certificaat van een mailserver is verlopen, niet uitgegeven door een vertrouwde autoriteit of noemt de server niet. Afzenders die op beveiliging staan (MTA-STS, DANE) weigeren dan af te leveren; andere versleutelen zonder te weten met wie ze praten.",
      steps: [
        "Zoek de mailserver en het certificaatprobleem op die het rapport noemt.",
        "Installeer een certificaat van een publieke autoriteit (Let's Encrypt is gratis) dat de hostnaam van de server precies zo noemt als in het MX-record.",
        "Stuur de volledige keten mee (het servercertificaat en de tussencertificaten).",
        "Stel automatische vernieuwing in en herlaad de mailserver na elke vernieuwing."
      ]
    }
  }),
  mx_tls_version_outdated: guide({
    why: "A mail server that receives your mail still accepts TLS 1.0 or 1.1, versions from 1999 and 2006. A sending server that speaks only those gets encryption with known weaknesses; current guidelines ask to phase them out.",
    steps: [
      "Find the mail server the report names and where its TLS is configured.",
      "Allow only TLS 1.2 and 1.3 (Postfix: smtpd_tls_protocols = >=TLSv1.2 and smtpd_tls_mandatory_protocols = >=TLSv1.2; Exim: tls_require_ciphers with openssl_options = +no_tlsv1 +no_tlsv1_1).",
      "Reload the mail server and scan again: TLS 1.0 and 1.1 should be refused."
    ],
    providers: {
      "microsoft-365":
        "Exchange Online accepts only TLS 1.2 and later: an MX that accepts older versions is a server of your own or of another provider."
    },
    references: ["ncsc_tls", "rfc8996", "rfc3207"],
    nl: {
      why: "Een mailserver die je mail ontvangt, accepteert nog TLS 1.0 of 1.1, versies uit 1999 en 2006. Een verzendende server die alleen die versies spreekt, krijgt versleuteling met bekende zwakheden; de huidige richtlijnen vragen ze uit te faseren.",
      steps: [
        "Zoek de mailserver op die het rapport noemt, en waar zijn TLS is ingesteld.",
        "Sta alleen TLS 1.2 en 1.3 toe (Postfix: smtpd_tls_protocols = >=TLSv1.2 en smtpd_tls_mandatory_protocols = >=TLSv1.2; Exim: tls_require_ciphers met openssl_options = +no_tlsv1 +no_tlsv1_1).",
        "Herlaad de mailserver en scan opnieuw: TLS 1.0 en 1.1 horen te worden geweigerd."
      ],
      providers: {
        "microsoft-365":
          "Exchange Online accepteert alleen TLS 1.2 en nieuwer: een MX die oudere versies accepteert, is een server van jezelf of van een andere provider."
      }
    }
  }),
  mx_tls_cipher_weak: guide({
    why: "A mail server that receives your mail agrees to weak encryption or encryption without forward secrecy for any sender that asks for it, so mail could be decrypted later or read on the way.",
    steps: [
      "Find the mail server the report names.",
      "Limit its cipher suites to ECDHE with AES-GCM or ChaCha20-Poly1305, keeping ECDHE with AES-CBC only for old senders (Postfix: smtpd_tls_ciphers = high, tls_high_cipherlist = ECDHE+AESGCM:ECDHE+CHACHA20:ECDHE+AES, tls_preempt_cipherlist = yes).",
      "Remove suites with RSA key exchange, 3DES, RC4, NULL or EXPORT, reload the server and scan again."
    ],
    references: ["ncsc_tls", "rfc3207"],
    nl: {
      why: "Een mailserver die je mail ontvangt, stemt in met zwakke versleuteling of versleuteling zonder forward secrecy, voor elke afzender die erom vraagt. Mail kan dan later worden ontsleuteld of onderweg worden gelezen.",
      steps: [
        "Zoek de mailserver op die het rapport noemt.",
        "Beperk zijn cipher suites tot ECDHE met AES-GCM of ChaCha20-Poly1305, en houd ECDHE met AES-CBC alleen voor oude afzenders (Postfix: smtpd_tls_ciphers = high, tls_high_cipherlist = ECDHE+AESGCM:ECDHE+CHACHA20:ECDHE+AES, tls_preempt_cipherlist = yes).",
        "Verwijder suites met RSA-sleuteluitwisseling, 3DES, RC4, NULL of EXPORT, herlaad de server en scan opnieuw."
      ]
    }
  }),
  mx_tls_key_exchange_weak: guide({
    why: "A mail server agrees the keys of each connection with a group that is too small or unusual; with enough effort an attacker could recover them.",
    steps: [
      "Prefer ECDHE key exchange with X25519, secp256r1 or secp384r1 (Postfix: tls_eecdh_auto_curves).",
      "If DHE must stay, configure an RFC 7919 group of 3072 bits or more (Postfix: smtpd_tls_dh1024_param_file with ffdhe3072), or remove the DHE suites.",
      "Reload the mail server and scan again."
    ],
    references: ["ncsc_tls", "rfc7919"],
    nl: {
      why: "Een mailserver spreekt de sleutels van elke verbinding af met een groep die te klein of ongebruikelijk is; met genoeg moeite kan een aanvaller ze achterhalen.",
      steps: [
        "Geef de voorkeur aan ECDHE-sleuteluitwisseling met X25519, secp256r1 of secp384r1 (Postfix: tls_eecdh_auto_curves).",
        "Moet DHE blijven, stel dan een groep uit RFC 7919 van 3072 bits of meer in (Postfix: smtpd_tls_dh1024_param_file met ffdhe3072), of verwijder de DHE-suites.",
        "Herlaad de mailserver en scan opnieuw."
      ]
    }
  }),
  mx_tls_ems_missing: guide({
    why: "A mail server still speaks TLS 1.2 without Extended Master Secret, so a TLS 1.2 session's keys are not tied to the handshake that made them; an attacker in the middle can then join two sessions (the triple handshake attack).",
    steps: [
      "Update the mail server's TLS library if it is old (OpenSSL 1.1.0 and later negotiate Extended Master Secret by default).",
      "Remove any setting that turns it off (Postfix: tls_ssl_options; OpenSSL configuration: Options -ExtendedMasterSecret).",
      "Restart the mail server and scan again."
    ],
    references: ["ncsc_tls", "rfc7627"],
    nl: {
      why: "Een mailserver spreekt nog TLS 1.2 zonder Extended Master Secret, zodat de sleutels van een TLS 1.2-sessie niet vastzitten aan de handshake die ze maakte; een aanvaller ertussen kan dan twee sessies aan elkaar koppelen (de triple-handshake-aanval).",
      steps: [
        "Werk de TLS-bibliotheek van de mailserver bij als die oud is (OpenSSL 1.1.0 en later spreken Extended Master Secret standaard af).",
        "Verwijder elke instelling die het uitzet (Postfix: tls_ssl_options; OpenSSL-configuratie: Options -ExtendedMasterSecret).",
        "Herstart de mailserver en scan opnieuw."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
