/**
 * The issues the DNSSEC check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  dnssec_unsigned: e(
    "dnssec",
    "medium",
    false,
    "DNSSEC not enabled",
    "The domain is not signed, so DNS answers can be forged (RFC 4033).",
    nl(
      "DNSSEC niet ingeschakeld",
      "Het domein is niet ondertekend, dus DNS-antwoorden kunnen worden vervalst (RFC 4033)."
    )
  ),
  dnssec_bogus: e(
    "dnssec",
    "critical",
    false,
    "DNSSEC validation fails",
    "Validating resolvers answer SERVFAIL: the domain is unreachable for them (bogus chain, RFC 4035 5.5).",
    nl(
      "DNSSEC-validatie faalt",
      "Validerende resolvers antwoorden SERVFAIL: het domein is voor hen onbereikbaar (kapotte keten, RFC 4035 5.5)."
    )
  ),
  dnssec_no_ds: e(
    "dnssec",
    "medium",
    false,
    "DNSSEC signed, but no DS at the parent",
    "The zone is signed, but its parent publishes no DS record, so the chain of trust never reaches it: validators treat it as unsigned (RFC 4035 4.3).",
    nl(
      "DNSSEC-ondertekend, maar geen DS in de bovenliggende zone",
      "De zone is ondertekend, maar de bovenliggende zone publiceert geen DS-record, dus de vertrouwensketen bereikt haar niet: validators behandelen haar als niet-ondertekend (RFC 4035 4.3)."
    )
  ),
  dnssec_insecure: e(
    "dnssec",
    "high",
    false,
    "DNSSEC chain of trust broken",
    "The zone is signed and its parent has a DS, but validators do not vouch for it: the DS matches no key, or they do not accept the algorithm or digest (RFC 4035 5.2, RFC 9905). They treat the domain as unsigned.",
    nl(
      "DNSSEC-vertrouwensketen verbroken",
      "De zone is ondertekend en de bovenliggende zone heeft een DS, maar validators staan er niet voor in: de DS past bij geen sleutel, of ze aanvaarden het algoritme of de digest niet (RFC 4035 5.2, RFC 9905). Ze behandelen het domein als niet-ondertekend."
    )
  ),
  dnssec_weak_algorithm: e(
    "dnssec",
    "medium",
    false,
    "Deprecated DNSSEC algorithm",
    "The zone is signed with an algorithm the IANA registry does not recommend for signing (RFC 9904; RSASHA1 and RSASHA1-NSEC3-SHA1 MUST NOT, RFC 9905); use 13 (ECDSA P-256) or 15 (Ed25519).",
    nl(
      "Verouderd DNSSEC-algoritme",
      "De zone is ondertekend met een algoritme dat het IANA-register niet aanbeveelt voor ondertekening (RFC 9904; RSASHA1 en RSASHA1-NSEC3-SHA1 MOGEN NIET, RFC 9905); gebruik 13 (ECDSA P-256) of 15 (Ed25519)."
    )
  ),
  dnssec_weak_digest: e(
    "dnssec",
    "medium",
    false,
    "DS record only with SHA-1",
    "The parent publishes the zone's DS only with digest type 1 (SHA-1), which MUST NOT be used for DS records (RFC 9904 Table 3); publish a SHA-256 DS (digest type 2).",
    nl(
      "DS-record alleen met SHA-1",
      "De bovenliggende zone publiceert de DS van de zone alleen met digesttype 1 (SHA-1), dat niet meer voor DS-records gebruikt mag worden (RFC 9904 tabel 3); publiceer een SHA-256-DS (digesttype 2)."
    )
  ),
  dnssec_rsa_key_short: e(
    "dnssec",
    "medium",
    false,
    "DNSSEC RSA key shorter than 2048 bits",
    "An RSA DNSKEY below 2048 bits is weaker than NIST SP 800-57 recommends; roll to a 2048-bit key or to algorithm 13.",
    nl(
      "DNSSEC-RSA-sleutel korter dan 2048 bits",
      "Een RSA-DNSKEY onder 2048 bits is zwakker dan NIST SP 800-57 aanbeveelt; rol over naar een sleutel van 2048 bits of naar algoritme 13."
    )
  ),
  dnssec_nsec3_iterations: e(
    "dnssec",
    "low",
    false,
    "NSEC3 with extra iterations or salt",
    "RFC 9276 3.1: iterations must be 0 and the salt should be empty.",
    nl(
      "NSEC3 met extra iteraties of salt",
      "RFC 9276 3.1: iteraties moeten 0 zijn en de salt hoort leeg te zijn."
    )
  ),
  dnssec_rrsig_expiring: e(
    "dnssec",
    "high",
    false,
    "DNSSEC signatures expire soon",
    "An RRSIG expires within 7 days or has expired; re-sign the zone.",
    nl(
      "DNSSEC-handtekeningen verlopen binnenkort",
      "Een RRSIG verloopt binnen 7 dagen of is verlopen; onderteken de zone opnieuw."
    )
  ),
  dnssec_rrsig_soa_expire: e(
    "dnssec",
    "low",
    false,
    "DNSSEC signatures expire before the SOA expire time",
    "A signature over the SOA or DNSKEY set expires sooner than the SOA expire: a secondary that loses its primary would keep serving the zone with expired signatures, which validators reject (RFC 1035 3.3.13, RFC 6781 4.4.2).",
    nl(
      "DNSSEC-handtekeningen verlopen voor de SOA-expire",
      "Een handtekening over de SOA- of DNSKEY-set verloopt eerder dan de SOA-expire: een secundaire server die zijn primaire kwijtraakt, zou de zone blijven serveren met verlopen handtekeningen, die validators weigeren (RFC 1035 3.3.13, RFC 6781 4.4.2)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  dnssec_unsigned: {
    impact: "Resolvers cannot detect forged answers (cache poisoning), and DANE cannot be used.",
    recommendation:
      "Enable DNSSEC signing at your DNS host (algorithm 13) and publish the DS record at the registrar."
  },
  dnssec_bogus: {
    impact: "Validating resolvers, a large share of internet users, cannot resolve the domain at all.",
    recommendation:
      "Make the DS at the parent match a published DNSKEY and re-sign the zone; if you cannot, remove the DS at the registrar first."
  },
  dnssec_no_ds: {
    impact: "The signatures protect nothing: no resolver can tell a forged answer from a real one.",
    recommendation: "Publish the DS record of the key-signing key at the registrar."
  },
  dnssec_insecure: {
    impact: "Validators fall back to treating the domain as unsigned, so forged answers go undetected.",
    recommendation:
      "Make the DS at the registrar match a current key-signing key, signed with algorithm 13 or 15 and hashed with SHA-256."
  },
  dnssec_weak_algorithm: {
    impact: "Validators increasingly treat the zone as unsigned, and the signatures may be forgeable.",
    recommendation:
      "Roll the keys to algorithm 13 (ECDSA P-256 SHA-256) with an algorithm rollover (RFC 6781 4.1.4)."
  },
  dnssec_weak_digest: {
    impact:
      "SHA-1 collisions are practical; validators that stop accepting SHA-1 DS records treat the zone as unsigned.",
    recommendation:
      "Publish a SHA-256 DS (digest type 2) for the key-signing key at the registrar, then remove the SHA-1 DS."
  },
  dnssec_rsa_key_short: {
    impact: "A short key may be factored, letting an attacker sign forged answers for the zone.",
    recommendation: "Roll to a 2048-bit RSA key or to algorithm 13."
  },
  dnssec_nsec3_iterations: {
    impact: "Extra iterations cost resolvers CPU; validators may treat such answers as insecure (RFC 9276).",
    recommendation: "Re-sign with NSEC3 iterations 0 and an empty salt (or switch to NSEC)."
  },
  dnssec_rrsig_expiring: {
    impact: "When the signatures expire, validating resolvers answer SERVFAIL for the whole domain.",
    recommendation: "Re-sign the zone now and check that automatic re-signing runs."
  },
  dnssec_rrsig_soa_expire: {
    impact:
      "If the primary becomes unreachable, the secondaries serve the zone until the SOA expire, but validating resolvers fail it once the signatures run out.",
    recommendation:
      "Make the signature validity (minus the re-signing margin) longer than the SOA expire, or lower the SOA expire below it."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
