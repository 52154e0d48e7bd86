/**
 * A tenant's claim on a domain, as values (docs/access.md, "Verified domains"): the challenge it
 * publishes, what one look-up of the challenge says, and how that moves the claim's state. Pure but
 * for the random bytes of a new token.
 *
 * The proof is the one mailbox providers and search consoles ask for: a TXT record under the domain
 * (RFC 1035 3.3.14) that only who controls the zone can publish. The record lives under its own
 * underscored label (RFC 8552 §2), so it meets no other TXT record of the domain (SPF, site
 * verifications). The token, random per claim, is what proves: a wildcard (RFC 4592) may answer
 * the name, never with a token no one has seen.
 */
import { randomBytes } from "node:crypto"

/** The label the challenge is published under: `_domain-audit-challenge.<domain>`. */
export const CHALLENGE_LABEL = "_domain-audit-challenge"

/** The prefix of every token, so that a record names what it is for. */
export const TOKEN_PREFIX = "domain-audit-verification="

/** A token's shape: the prefix, then 32 random bytes in base64url (RFC 4648 §5). */
const TOKEN_TEXT = /^domain-audit-verification=[A-Za-z0-9_-]{43}$/

/** Where the challenge of `domain` is published. */
export const challengeName = (domain: string): string => `${CHALLENGE_LABEL}.${domain}`

/** A new token: 256 random bits, so that no one guesses the record a claim waits for. */
export const newToken = (): string => TOKEN_PREFIX + randomBytes(32).toString("base64url")

export const looksLikeToken = (text: string): boolean => TOKEN_TEXT.test(text)

/** The states of a claim: waiting for its record, proven, or proven once and the record gone since. */
export type ClaimState = "pending" | "verified" | "lapsed"

/**
 * One look-up of the challenge name, as the resolver answered it: the TXT strings (each record's
 * strings joined, RFC 7208 3.3 style) and whether the answer was DNSSEC-validated (the AD bit), or
 * the look-up failed (timeout, SERVFAIL, which a validating resolver also answers for a bogus
 * signature, RFC 4035 §5.5).
 */
export type ChallengeLookup =
  { readonly records: ReadonlyArray<string>; readonly authenticated: boolean } | { readonly error: string }

/** What one look-up says of a claim whose token is `token`. */
export type Finding =
  | { readonly found: "present"; readonly authenticated: boolean }
  | { readonly found: "absent" }
  | { readonly found: "unknown"; readonly reason: string }

/**
 * The token is there when one TXT record is exactly it (surrounding spaces aside): a record that
 * merely contains it could be anyone's concatenation. No record, or none that matches, is absent;
 * a failed look-up is unknown, never absent (DESIGN.md principle 4).
 */
export const findToken = (lookup: ChallengeLookup, token: string): Finding =>
  "error" in lookup
    ? { found: "unknown", reason: lookup.error }
    : lookup.records.some((r) => r.trim() === token)
      ? { found: "present", authenticated: lookup.authenticated }
      : { found: "absent" }

/**
 * The state after a look-up. A present token verifies (again); an absent one lapses a verified
 * claim and leaves a pending one pending; an unknown look-up changes nothing: a resolver that
 * timed out has not seen the record go.
 */
export const nextState = (state: ClaimState, finding: Finding): ClaimState =>
  finding.found === "present"
    ? "verified"
    : finding.found === "absent"
      ? state === "verified"
        ? "lapsed"
        : state
      : state

/**
 * Whether a claim is due for its re-check: verified, and not checked for `everyMs` (`DOMAIN_RECHECK`,
 * a day unless configured; docs/access.md).
 */
export const recheckDue = (
  claim: { readonly state: ClaimState; readonly checkedAt: number | null },
  now: number,
  everyMs: number
): boolean => claim.state === "verified" && (claim.checkedAt === null || claim.checkedAt + everyMs <= now)
