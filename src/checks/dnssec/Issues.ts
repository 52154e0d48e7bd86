/**
 * The issues the DNSSEC check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry } from "../../kernel/Declaration.ts"

export const issues = {
  dnssec_unsigned: e(
    "dnssec",
    "medium",
    false,
    "DNSSEC not enabled",
    "The domain is not signed, so DNS answers can be forged (RFC 4033)."
  ),
  dnssec_bogus: e(
    "dnssec",
    "critical",
    false,
    "DNSSEC validation fails",
    "Validating resolvers answer SERVFAIL: the domain is unreachable for them (bogus chain, RFC 4035 5.5)."
  ),
  dnssec_weak_algorithm: e(
    "dnssec",
    "medium",
    false,
    "Deprecated DNSSEC algorithm",
    "The zone is signed with an algorithm RFC 8624 deprecates; use 13 (ECDSA P-256) or 8."
  ),
  dnssec_rsa_key_short: e(
    "dnssec",
    "medium",
    false,
    "DNSSEC RSA key shorter than 2048 bits",
    "An RSA DNSKEY below 2048 bits is weaker than NIST SP 800-57 recommends; roll to a 2048-bit key or to algorithm 13."
  ),
  dnssec_nsec3_iterations: e(
    "dnssec",
    "low",
    false,
    "NSEC3 with extra iterations or salt",
    "RFC 9276 3.1: iterations must be 0 and the salt should be empty."
  ),
  dnssec_rrsig_expiring: e(
    "dnssec",
    "high",
    false,
    "DNSSEC signatures expire soon",
    "An RRSIG expires within 7 days or has expired; re-sign the zone."
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
  dnssec_weak_algorithm: {
    impact: "Validators increasingly treat the zone as unsigned, and the signatures may be forgeable.",
    recommendation:
      "Roll the keys to algorithm 13 (ECDSA P-256 SHA-256) with an algorithm rollover (RFC 6781 4.1.4)."
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
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
