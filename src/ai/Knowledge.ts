/**
 * The knowledge base behind `POST /ai/explain` and `/ai/fix` (docs/ai.md): one entry per id of the
 * issue catalogue, adding impact and recommendation to the catalogue's title, severity and
 * description. Pure. `test/score/knowledge.test.ts` fails when a catalogue id has no entry here
 * (the `satisfies` below already fails to compile when one is missing).
 */
import { catalogue, type IssueId } from "../score/Catalogue.ts"
import type { Advice } from "./KnowledgeEntry.ts"
import { emailAdvice } from "./KnowledgeEmail.ts"

export type { Advice } from "./KnowledgeEntry.ts"

export const advice = {
  ...emailAdvice,
  dns_no_such_domain: {
    impact: "Mail to the domain bounces, its web site is unreachable and every other check is meaningless.",
    recommendation:
      "Check the registration and delegation at your registrar (the NS records at the parent zone) and that the name servers serve the zone."
  },
  ns_single: {
    impact: "One server outage or network problem makes the whole domain, mail included, unresolvable.",
    recommendation:
      "Add at least one more name server, preferably in another network (a secondary DNS service), and list it at the registrar."
  },
  soa_missing: {
    impact: "Resolvers cannot cache negative answers correctly and secondaries cannot transfer the zone.",
    recommendation: "Make the authoritative servers serve the zone with its SOA record at the apex."
  },
  mx_unresolvable: {
    impact: "Senders cannot deliver to that mail server; with no working MX, mail to the domain bounces.",
    recommendation: "Give each MX host an A and/or AAAA record, or remove the MX entry that points nowhere."
  },
  null_mx_missing: {
    impact:
      "Mail to the domain is not refused at once: senders try its web address, queue the message and bounce it days later, and the name stays attractive to spammers forging it.",
    recommendation:
      "If the domain receives no mail, publish a null MX: `@ MX 0 .` (RFC 7505), with `v=spf1 -all`; if it should, publish MX records naming the mail servers."
  },
  ptr_missing: {
    impact: "Large receivers reject or junk mail from addresses without reverse DNS.",
    recommendation:
      "Ask whoever runs the address block (hosting provider or ISP) to set a PTR naming the mail server's host name."
  },
  fcrdns_mismatch: {
    impact: "Receivers that require forward-confirmed reverse DNS reject or penalise the server's mail.",
    recommendation:
      "Make the PTR name resolve (A/AAAA) back to the same address, or change the PTR to a name that does."
  },
  caa_missing: {
    impact: "A mis-issued certificate from any CA is accepted by browsers for your names.",
    recommendation:
      'Publish CAA records naming the CAs you use, for example 0 issue "letsencrypt.org", and an iodef contact.'
  },
  starttls_missing: {
    impact: "Mail to you travels in plaintext and can be read or altered on the way.",
    recommendation: "Enable STARTTLS on every MX with a certificate for its host name, TLS 1.2 or later."
  },
  mx_cert_invalid: {
    impact:
      "Senders enforcing MTA-STS or DANE refuse to deliver; others fall back to unauthenticated encryption.",
    recommendation:
      "Install a certificate from a public CA that names the MX host, renew it before expiry, and send the full chain."
  },
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
  },
  blocklisted: {
    impact: "Receivers consulting that list reject or junk your mail.",
    recommendation:
      "Find and stop the cause (compromised account, open relay, bad list), then request delisting on the blocklist's site."
  },
  https_missing: {
    impact: "Visitors get an error or an unencrypted page that anyone on the path can read or change.",
    recommendation:
      "Serve the site over HTTPS with a certificate from a public CA (ACME makes this automatic)."
  },
  https_certificate_invalid: {
    impact: "Browsers show a full-page warning and most visitors leave; API clients fail outright.",
    recommendation:
      "Renew or replace the certificate so it is trusted, current and names the host, and serve the full chain."
  },
  hsts_missing: {
    impact: "A visitor's first request over HTTP can be intercepted and kept on HTTP (SSL stripping).",
    recommendation: "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on HTTPS responses."
  },
  hsts_weak: {
    impact: "Protection lapses soon after the last visit, or subdomains remain open to downgrade.",
    recommendation:
      "Raise max-age to at least 31536000 and add includeSubDomains once every subdomain serves HTTPS."
  },
  xcto_missing: {
    impact: "Browsers may run an uploaded file as script or style (MIME sniffing).",
    recommendation: "Send X-Content-Type-Options: nosniff on every response."
  },
  frame_protection_missing: {
    impact: "Other sites can frame your pages and trick users into clicks (clickjacking).",
    recommendation:
      "Send Content-Security-Policy frame-ancestors 'self' (and X-Frame-Options: SAMEORIGIN for old browsers)."
  },
  referrer_policy_missing: {
    impact: "Full URLs, including tokens in query strings, may reach other sites.",
    recommendation: "Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer)."
  },
  csp_missing: {
    impact: "A cross-site scripting flaw lets injected script read data and act as the user.",
    recommendation:
      "Deploy a Content-Security-Policy, first as Content-Security-Policy-Report-Only, then enforced; POST /csp/scan suggests one from your pages."
  },
  csp_weak: {
    impact: "unsafe-inline and unsafe-eval let injected script run, so the policy stops little.",
    recommendation: "Replace inline script with nonces or hashes, remove unsafe-eval, and enforce the policy."
  },
  csp_unsafe: {
    impact:
      "An injected script runs as if the policy were absent: inline script, or script from any host, is allowed.",
    recommendation:
      "Set script-src (or default-src) to your own origins with nonces or hashes ('strict-dynamic' for loaders), drop 'unsafe-inline' and wildcard hosts; POST /csp/scan suggests a policy from your pages."
  },
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
  },
  ipv6_mx_missing: {
    impact: "IPv6-only senders cannot deliver mail to you directly.",
    recommendation: "Give the mail servers AAAA records (with matching PTR records)."
  },
  ipv6_web_missing: {
    impact: "IPv6-only visitors reach the site only through translation, if at all.",
    recommendation: "Publish AAAA records for the web site."
  }
} satisfies Record<IssueId, Advice>

/** The knowledge-base answer for a catalogue id, in the spec's explain fields. */
export const explainIssue = (id: IssueId) => {
  const entry = catalogue[id]
  const extra: Advice = advice[id]
  return {
    title: entry.title,
    explanation: `${entry.title}. ${entry.description}${extra.detail ? ` ${extra.detail}` : ""}`,
    // the spec's explain severities have no "info": information is the lowest, "low"
    severity: entry.severity === "info" ? ("low" as const) : entry.severity,
    impact: extra.impact,
    recommendation: extra.recommendation
  }
}

export type Explanation = ReturnType<typeof explainIssue>

/**
 * An `issue_type` as a user may write it: `dmarc_policy_none`, `DMARC-POLICY-NONE`. Returns the
 * catalogue id, or undefined.
 */
export const issueIdOf = (text: string): IssueId | undefined => {
  const id = text
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_")
  return Object.hasOwn(catalogue, id) ? (id as IssueId) : undefined
}

/** Up to `n` catalogue ids close to an unknown `issue_type` (shared words first), for the 400. */
export const closeIds = (text: string, n = 3): ReadonlyArray<IssueId> => {
  const words = new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1)
  )
  return (Object.keys(catalogue) as Array<IssueId>)
    .map((id) => ({ id, shared: id.split("_").filter((w) => words.has(w)).length }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.id.localeCompare(b.id))
    .slice(0, n)
    .map((x) => x.id)
}
