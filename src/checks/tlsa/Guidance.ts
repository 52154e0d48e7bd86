/**
 * What a domain owner does about each DANE issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). TLSA records sit at `_25._tcp.<mx host>` in the zone of the MX host and need
 * that zone signed with DNSSEC (RFC 7672).
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /dns/tlsa/generate"

export const guidance = {
  dane_invalid: guide({
    why: "The mail servers' TLSA records do not match their certificates, or are not signed. Senders that check DANE (many European providers among them) then refuse to deliver mail to you.",
    steps: [
      "Compare the TLSA records with the certificate each mail server presents now (the report shows both).",
      "Publish a TLSA record that matches the current key (3 1 1: the SHA-256 of the public key) and remove records that match nothing.",
      "Before the next certificate renewal with a new key, publish the new key's record beside the old one, wait two TTLs, then switch the certificate.",
      "Check that the MX host's zone is DNSSEC-signed: TLSA records in an unsigned zone are ignored."
    ],
    providers: {
      "generic-dns":
        "With Let's Encrypt, keep the same key across renewals (certbot --reuse-key) so a 3 1 1 record stays valid."
    },
    record: "_25._tcp.mail.{domain} TLSA 3 1 1 <SHA-256 of the server's public key>",
    generator: GENERATOR,
    references: ["rfc7672", "rfc6698"],
    nl: {
      why: "De TLSA-records van de mailservers passen niet bij hun certificaten, of zijn niet ondertekend. Afzenders die DANE controleren (waaronder veel Europese providers) weigeren dan mail bij je af te leveren.",
      steps: [
        "Vergelijk de TLSA-records met het certificaat dat elke mailserver nu toont (het rapport toont beide).",
        "Publiceer een TLSA-record dat bij de huidige sleutel past (3 1 1: de SHA-256 van de publieke sleutel) en verwijder records die nergens bij passen.",
        "Publiceer vóór de volgende certificaatvernieuwing met een nieuwe sleutel het record van die nieuwe sleutel naast het oude, wacht twee TTL's en wissel dan het certificaat.",
        "Controleer of de zone van de MX-host met DNSSEC is ondertekend: TLSA-records in een niet-ondertekende zone worden genegeerd."
      ],
      providers: {
        "generic-dns":
          "Houd bij Let's Encrypt dezelfde sleutel bij elke vernieuwing (certbot --reuse-key), zodat een 3 1 1-record geldig blijft."
      }
    }
  }),
  dane_missing: guide({
    why: "The zone is signed but the mail servers publish no TLSA record. Senders that check DANE cannot verify your mail servers and encrypt without knowing who they are talking to.",
    steps: [
      "For each mail server you run, compute the TLSA record 3 1 1 from its certificate's public key.",
      "Publish it at _25._tcp.<mail server name> in the DNSSEC-signed zone of that name.",
      "Keep the key across certificate renewals, or publish the next key's record before switching."
    ],
    providers: {
      "google-workspace":
        "Mail servers run by Google do not support DANE for inbound mail: nothing to publish.",
      "microsoft-365":
        "Exchange Online supports inbound DANE: enable it with Enable-SmtpDaneInbound after DNSSEC is on; Microsoft publishes the TLSA records on its MX host.",
      cloudflare: "Cloudflare DNS accepts TLSA records in signed zones (DNS > Records > Add > TLSA)."
    },
    record: "_25._tcp.mail.{domain} TLSA 3 1 1 <SHA-256 of the server's public key>",
    generator: GENERATOR,
    references: ["rfc7672", "rfc6698"],
    nl: {
      why: "De zone is ondertekend, maar de mailservers publiceren geen TLSA-record. Afzenders die DANE controleren, kunnen je mailservers niet verifiëren en versleutelen zonder te weten met wie ze praten.",
      steps: [
        "Bereken voor elke mailserver die je beheert het TLSA-record 3 1 1 uit de publieke sleutel van zijn certificaat.",
        "Publiceer het op _25._tcp.<naam van de mailserver> in de met DNSSEC ondertekende zone van die naam.",
        "Houd de sleutel bij certificaatvernieuwingen, of publiceer het record van de volgende sleutel voordat je wisselt."
      ],
      providers: {
        "google-workspace":
          "De mailservers van Google ondersteunen geen DANE voor inkomende mail: er is niets te publiceren.",
        "microsoft-365":
          "Exchange Online ondersteunt DANE voor inkomende mail: zet het aan met Enable-SmtpDaneInbound nadat DNSSEC aan staat; Microsoft publiceert de TLSA-records op zijn MX-host.",
        cloudflare:
          "Cloudflare DNS accepteert TLSA-records in ondertekende zones (DNS > Records > Add > TLSA)."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
