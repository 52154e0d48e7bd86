/** What a domain owner does about servers that differ on the post-quantum key exchange (docs/guidance.md). */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  pq_kex_partial: guide({
    why: "Current browsers and mail servers offer a hybrid key exchange that combines a classical curve with ML-KEM, a post-quantum algorithm. Some of your servers take it and others pick the classical curve alone: traffic through those is protected against today's attackers, but not against someone who records it now and decrypts it once large quantum computers exist.",
    steps: [
      "Read the report: it lists each web and mail server and the key exchange it chose.",
      "Upgrade the TLS library of the servers without the hybrid: OpenSSL 3.5 or later (Node.js 24, recent nginx, Postfix and Exim builds on it), BoringSSL, Go 1.24 or rustls offer X25519MLKEM768.",
      "List X25519MLKEM768 first among the server's groups (OpenSSL: `Groups = X25519MLKEM768:X25519:P-256`; nginx: `ssl_ecdh_curve X25519MLKEM768:X25519:prime256v1;`; Postfix: `tls_eecdh_auto_curves`).",
      "Scan again: each server should take X25519MLKEM768."
    ],
    references: ["mlkem_hybrid", "rfc8446"],
    nl: {
      why: "Huidige browsers en mailservers bieden een hybride sleuteluitwisseling aan die een klassieke curve combineert met ML-KEM, een post-quantum algoritme. Sommige van je servers kiezen die, andere alleen de klassieke curve: verkeer via die laatste is beschermd tegen de aanvallers van vandaag, maar niet tegen iemand die het nu opneemt en ontsleutelt zodra er grote quantumcomputers bestaan.",
      steps: [
        "Lees het rapport: het noemt elke web- en mailserver en de sleuteluitwisseling die deze koos.",
        "Werk de TLS-bibliotheek van de servers zonder de hybride bij: OpenSSL 3.5 of nieuwer (Node.js 24, recente builds van nginx, Postfix en Exim), BoringSSL, Go 1.24 of rustls bieden X25519MLKEM768.",
        "Zet X25519MLKEM768 als eerste bij de groepen van de server (OpenSSL: `Groups = X25519MLKEM768:X25519:P-256`; nginx: `ssl_ecdh_curve X25519MLKEM768:X25519:prime256v1;`; Postfix: `tls_eecdh_auto_curves`).",
        "Scan opnieuw: elke server hoort X25519MLKEM768 te kiezen."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
