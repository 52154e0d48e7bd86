/**
 * What a domain owner does about each DNSSEC issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). The chain of trust runs from the registrar's DS record to the DNS host's keys,
 * so most steps happen in two places: where the zone is hosted, and where the domain is registered.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  dnssec_unsigned: guide({
    why: "Without DNSSEC an attacker who can answer DNS questions for your visitors or for other mail servers can send them to a server of their choosing, and nobody can tell. Signing the zone lets resolvers reject forged answers; it is also what DANE for mail builds on.",
    steps: [
      "Turn on DNSSEC signing for the zone at your DNS host, choosing algorithm 13 (ECDSA P-256 SHA-256) if asked.",
      "Copy the DS record (key tag, algorithm 13, digest type 2 and the digest) that the DNS host shows once signing is on.",
      "Add that DS record at your registrar, in the domain's DNSSEC settings.",
      "After the registry publishes it (minutes to a day), scan the domain again: DNSSEC should show as signed and valid."
    ],
    providers: {
      cloudflare:
        "DNS > Settings > Enable DNSSEC signs the zone in one click and shows the DS record. If Cloudflare is also the registrar, it adds the DS for you; otherwise paste it at your registrar.",
      "route53-ses":
        "In the hosted zone, DNSSEC signing > Enable DNSSEC signing asks for a key-signing key backed by a customer-managed KMS key (ECC_NIST_P256, in us-east-1). Then View information to create DS record; for a domain registered with Route 53, add it under Registered domains > DNSSEC keys.",
      "generic-dns":
        "If your DNS host cannot sign zones, move the zone to one that can before anything else; a DS at the registrar without signatures makes the domain unreachable."
    },
    references: ["rfc4033", "rfc4035", "rfc8624"]
  }),
  dnssec_bogus: guide({
    why: "Resolvers that validate DNSSEC (used by a large share of internet users, including many ISPs, Google Public DNS and Cloudflare 1.1.1.1) cannot find your domain at all: web site and mail stop working for them.",
    steps: [
      "Compare the DS record at the registrar with the DNSKEY records the DNS host publishes: the DS must match a current key-signing key.",
      "If the keys changed (new DNS host, key rollover), replace the DS at the registrar with the one the DNS host shows now.",
      "If the zone is no longer signed, or you cannot fix the keys quickly, remove the DS record at the registrar: the domain becomes reachable again, unsigned, once the old DS expires from caches.",
      "Scan again once the registry has published the change."
    ],
    providers: {
      cloudflare:
        "Moving a signed zone to Cloudflare breaks validation unless the old DS is removed or replaced by the DS that DNS > Settings > DNSSEC shows.",
      "route53-ses":
        "If the KMS key behind the key-signing key was disabled or deleted, Route 53 stops signing: re-enable the key, or remove the DS before disabling DNSSEC signing."
    },
    references: ["rfc4035", "rfc6781"]
  }),
  dnssec_weak_algorithm: guide({
    why: "The zone is signed with an algorithm that is being retired. Validators increasingly treat such zones as unsigned, and the signatures give weaker protection than current ones.",
    steps: [
      "Ask your DNS host to roll the zone to algorithm 13 (ECDSA P-256 SHA-256); many hosts do this as an option in the DNSSEC settings.",
      "During an algorithm rollover, new keys and signatures are published first; only then is the DS at the registrar replaced with the new key's DS.",
      "Remove the old keys only after the old DS has left caches (at least its TTL, usually a day or two)."
    ],
    providers: {
      cloudflare:
        "Cloudflare signs with algorithm 13 already: disable and re-enable is not needed; re-check the DS at the registrar.",
      "route53-ses":
        "Route 53 signs with algorithm 13 (ECDSA P-256): moving the zone's signing to Route 53 is the rollover."
    },
    references: ["rfc8624", "rfc6781"]
  }),
  dnssec_rsa_key_short: guide({
    why: "An RSA key shorter than 2048 bits may be broken by a well-funded attacker, who could then sign forged answers that resolvers accept as genuine.",
    steps: [
      "Roll the zone's keys to 2048-bit RSA, or better to algorithm 13 (ECDSA P-256), at your DNS host.",
      "If the key-signing key changes, publish its new DS record at the registrar and remove the old DS after a day or two."
    ],
    references: ["nist_sp800_57", "rfc8624"]
  }),
  dnssec_nsec3_iterations: guide({
    why: "Extra NSEC3 iterations and salt add no real protection but cost every resolver work; current validators may treat such answers as unsigned.",
    steps: [
      "In the zone's DNSSEC settings, set NSEC3 iterations to 0 and the salt to empty (or switch to NSEC).",
      "Let the DNS host re-sign the zone; no change at the registrar is needed."
    ],
    providers: {
      "generic-dns":
        "On BIND: dnssec-policy with nsec3param iterations 0 optout no salt-length 0. On PowerDNS: pdnsutil set-nsec3 <zone> '1 0 0 -'."
    },
    references: ["rfc9276"]
  }),
  dnssec_rrsig_expiring: guide({
    why: "The zone's signatures are about to expire or have expired. When they do, validating resolvers treat the whole domain as broken and stop answering for it: web site and mail go down for their users.",
    steps: [
      "Re-sign the zone at the DNS host now.",
      "Find out why automatic re-signing stopped (a stopped signer, an expired key, a hidden primary no longer transferring) and fix it.",
      "Scan again: every signature should be valid for more than 7 days."
    ],
    references: ["rfc4035"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
