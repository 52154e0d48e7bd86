/**
 * The issue catalogue: every finding a scan can produce, under a stable snake_case id. The ids are
 * the contract `/ai/explain`, `/ai/fix`, NIS2 evidence and reports key on; `docs/issues.md` is
 * checked against this table by `test/score/catalogue.test.ts`. `fixable` is true when one of our
 * generators (`src/generate/`: SPF, DMARC, TLSA, security headers) produces the fix.
 */
import { Schema } from "effect"
import { Categories } from "../checks/Check.ts"
import { Severity } from "../checks/Status.ts"
import { emailIssues } from "./CatalogueEmail.ts"
import { e, type Entry } from "./IssueEntry.ts"

export const Issue = Schema.Struct({
  id: Schema.String,
  severity: Severity,
  category: Schema.Literal(...Categories),
  title: Schema.String,
  description: Schema.String,
  fixable: Schema.Boolean
})
export type Issue = typeof Issue.Type

export const catalogue = {
  // dns
  dns_no_such_domain: e(
    "dns",
    "critical",
    false,
    "Domain does not exist",
    "The domain's name servers answer NXDOMAIN: every DNS-based check fails."
  ),
  ns_single: e(
    "dns",
    "medium",
    false,
    "Fewer than two name servers",
    "RFC 1034 4.1 and RFC 2182 ask for at least two name servers so one outage does not take the domain offline."
  ),
  soa_missing: e(
    "dns",
    "medium",
    false,
    "No SOA record",
    "The zone apex answers no SOA record (RFC 1035 3.3.13)."
  ),
  mx_unresolvable: e(
    "dns",
    "high",
    false,
    "Mail server names do not resolve",
    "An MX target has no A or AAAA address, so mail to it cannot be delivered (RFC 5321 5.1)."
  ),
  null_mx_missing: e(
    "dns",
    "low",
    false,
    "No MX and no null MX",
    "The domain has no MX record, so senders deliver to its own address (RFC 5321 5.1), where no mail server answers; a null MX (RFC 7505) says it receives no mail."
  ),
  ptr_missing: e(
    "dns",
    "medium",
    false,
    "Mail server address has no PTR",
    "Receivers reject or penalise mail from addresses without reverse DNS (RFC 1912 2.1, M3AAWG)."
  ),
  fcrdns_mismatch: e(
    "dns",
    "medium",
    false,
    "Reverse DNS is not forward-confirmed",
    "The PTR name of a mail server address does not resolve back to that address."
  ),
  caa_missing: e(
    "dns",
    "low",
    false,
    "No CAA record",
    "Without CAA any certificate authority may issue certificates for the domain (RFC 8659)."
  ),
  ...emailIssues,
  // security
  starttls_missing: e(
    "security",
    "high",
    false,
    "Mail server without STARTTLS",
    "A mail server does not offer STARTTLS with TLS 1.2 or later, so mail travels in plaintext (RFC 3207)."
  ),
  mx_cert_invalid: e(
    "security",
    "medium",
    false,
    "Mail server certificate is not valid",
    "A mail server's certificate is expired, untrusted or does not name the host."
  ),
  dane_invalid: e(
    "security",
    "medium",
    true,
    "DANE TLSA does not validate",
    "TLSA records do not match the certificate or are not DNSSEC-signed (RFC 7672)."
  ),
  dane_missing: e(
    "security",
    "low",
    true,
    "No DANE",
    "No TLSA record for the mail servers in a signed zone (RFC 7672)."
  ),
  blocklisted: e(
    "security",
    "high",
    false,
    "Mail server on a blocklist",
    "A mail server address is listed on a high-severity DNS blocklist."
  ),
  https_missing: e(
    "security",
    "high",
    false,
    "No working HTTPS",
    "The web site does not answer over HTTPS with a trusted certificate."
  ),
  https_certificate_invalid: e(
    "security",
    "critical",
    false,
    "HTTPS certificate expired or untrusted",
    "Browsers refuse the site: the certificate is expired, untrusted or for another name."
  ),
  hsts_missing: e(
    "security",
    "medium",
    true,
    "No HSTS",
    "Without Strict-Transport-Security browsers may be downgraded to HTTP (RFC 6797)."
  ),
  hsts_weak: e("security", "low", true, "Weak HSTS", "max-age below one year or without includeSubDomains."),
  xcto_missing: e(
    "security",
    "low",
    true,
    "No X-Content-Type-Options",
    "Without nosniff browsers may treat responses as another content type."
  ),
  frame_protection_missing: e(
    "security",
    "low",
    true,
    "No clickjacking protection",
    "Neither X-Frame-Options nor CSP frame-ancestors restricts framing."
  ),
  referrer_policy_missing: e(
    "security",
    "low",
    true,
    "No safe Referrer-Policy",
    "URLs may leak to other sites in the Referer header."
  ),
  csp_missing: e(
    "security",
    "medium",
    true,
    "No Content-Security-Policy",
    "Without CSP an injected script runs with the page's rights."
  ),
  csp_weak: e(
    "security",
    "low",
    true,
    "Weak Content-Security-Policy",
    "The CSP allows unsafe-eval, does not restrict object-src to 'none', or sets no base-uri."
  ),
  csp_unsafe: e(
    "security",
    "medium",
    true,
    "Content-Security-Policy does not restrict scripts",
    "The CSP allows 'unsafe-inline' scripts without nonces or hashes, scripts from any host, or sets no script-src or default-src, so an injected script still runs (the HTTP Observatory scores it almost as no CSP)."
  ),
  // dnssec
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
  ),
  // ipv6
  ipv6_mx_missing: e(
    "ipv6",
    "low",
    false,
    "Mail servers without IPv6",
    "No mail server has an AAAA address."
  ),
  ipv6_web_missing: e("ipv6", "low", false, "Web site without IPv6", "The domain has no AAAA record.")
} satisfies Record<string, Entry>

export type IssueId = keyof typeof catalogue
export const issueIds = Object.keys(catalogue) as ReadonlyArray<IssueId>
export const issueOf = (id: IssueId): Issue => ({ id, ...catalogue[id] })
