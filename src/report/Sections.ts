/**
 * The concerns of the Everything Report (SPEC "Everything Report and snapshot": quick score, DNS
 * records, DNSSEC, DANE/TLSA, SPF with its lookup graph and flattening guidance, DKIM, DMARC, BIMI,
 * MTA-STS, SMTP STARTTLS, FCrDNS, blocklists, sender requirements, web security), in report order.
 *
 * Each concern names the check whose result it presents, the score records that judge it (by id
 * prefix, see score/Rules*.ts), the catalogue issue ids it owns (by prefix, for findings that are not
 * tied to a record) and the sources it rests on (Citations.ts). Adding a check to the registry
 * means adding its concern here; test/report/sections.test.ts fails until then.
 */
import type { registry } from "../checks/index.ts"

export type CheckId = (typeof registry)[number]["id"]

export interface Concern {
  readonly key: string
  readonly title: string
  /** The check whose typed result the section presents (the quick score has none). */
  readonly check: CheckId | null
  /** Score record ids (score/Rules*.ts) judged in this section, by prefix. */
  readonly records: ReadonlyArray<string>
  /** Catalogue issue ids owned by this section, by prefix (findings carry no record). */
  readonly issues: ReadonlyArray<string>
  /** Citation keys of the section's primary sources. */
  readonly sources: ReadonlyArray<string>
  /** Fields of the result shown as facts (objects are shown one level deep). */
  readonly facts: ReadonlyArray<string>
  /** The generator endpoint that writes the fix, if any. */
  readonly generator: string | null
}

const concern = (c: Concern): Concern => c

export const concerns: ReadonlyArray<Concern> = [
  concern({
    key: "quickScore",
    title: "Quick score",
    check: null,
    records: [],
    issues: [],
    sources: [],
    facts: [],
    generator: null
  }),
  concern({
    key: "dnsRecords",
    title: "DNS records",
    check: "dns-records",
    records: ["dns.ns", "dns.soa", "dns.mx", "dns.caa", "ipv6."],
    issues: ["dns_", "ns_", "soa_", "mx_unresolvable", "null_mx_missing", "caa_", "ipv6_"],
    sources: ["rfc1034", "rfc1035", "rfc2182", "rfc8659"],
    facts: ["records", "outcomes", "resolver", "dnssecValidated"],
    generator: null
  }),
  concern({
    key: "dnssec",
    title: "DNSSEC",
    check: "dnssec",
    records: ["dnssec."],
    issues: ["dnssec_"],
    sources: ["rfc4033", "rfc4034", "rfc4035", "rfc8624", "rfc9276"],
    facts: ["status", "signed", "valid", "state", "zone", "issues"],
    generator: null
  }),
  concern({
    key: "daneTlsa",
    title: "DANE / TLSA",
    check: "dane",
    records: ["security.mx.dane"],
    issues: ["dane_"],
    sources: ["rfc6698", "rfc7672"],
    facts: ["status", "exists", "dnssecValidated", "tlsaDomain", "port", "protocol", "issues"],
    generator: "POST /dns/tlsa/generate"
  }),
  concern({
    key: "spf",
    title: "SPF",
    check: "spf",
    records: ["email.spf."],
    issues: ["spf_"],
    sources: ["rfc7208"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "policy",
      "includes",
      "lookups",
      "lookupLimit",
      "voidLookups",
      "warnings",
      "issues"
    ],
    generator: "POST /email/spf/generate"
  }),
  concern({
    key: "dkim",
    title: "DKIM",
    check: "dkim",
    records: ["email.dkim"],
    issues: ["dkim_"],
    sources: ["rfc6376", "rfc8301"],
    facts: ["status", "hasDkim", "selectors_found", "valid_keys", "warnings", "issues", "note"],
    generator: null
  }),
  concern({
    key: "dmarc",
    title: "DMARC",
    check: "dmarc",
    records: ["email.dmarc."],
    issues: ["dmarc_"],
    sources: ["rfc7489"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "policy",
      "subdomainPolicy",
      "pct",
      "rua",
      "ruf",
      "adkim",
      "aspf",
      "warnings",
      "issues"
    ],
    generator: "POST /email/dmarc/generate"
  }),
  concern({
    key: "bimi",
    title: "BIMI",
    check: "bimi",
    records: ["email.bimi"],
    issues: ["bimi_"],
    sources: ["bimi"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "logoUrl",
      "authorityUrl",
      "warnings",
      "issues",
      "trademarkNote"
    ],
    generator: null
  }),
  concern({
    key: "mtaSts",
    title: "MTA-STS and TLS reporting",
    check: "mta-sts",
    records: ["email.mta_sts", "email.tls_rpt"],
    issues: ["mta_sts_", "tls_rpt_"],
    sources: ["rfc8461", "rfc8460"],
    facts: ["status", "exists", "valid", "record", "policyId", "policyUrl", "warnings", "issues"],
    generator: null
  }),
  concern({
    key: "smtpStarttls",
    title: "SMTP STARTTLS",
    check: "smtp-tls",
    records: ["security.mx.starttls", "security.mx.cert"],
    issues: ["starttls_", "mx_cert_"],
    sources: ["rfc3207", "rfc5321", "rfc9525"],
    facts: ["summary", "issues"],
    generator: null
  }),
  concern({
    key: "fcrdns",
    title: "Forward-confirmed reverse DNS",
    check: "fcrdns",
    records: ["dns.ptr", "dns.fcrdns"],
    issues: ["ptr_", "fcrdns_"],
    sources: ["rfc1912", "m3aawg"],
    facts: ["description", "result"],
    generator: null
  }),
  concern({
    key: "blocklists",
    title: "DNS blocklists",
    check: "blocklist",
    records: ["security.blocklist"],
    issues: ["blocklisted"],
    sources: ["rfc5782"],
    facts: ["status", "summary", "issues"],
    generator: null
  }),
  concern({
    key: "senderRequirements",
    title: "Mailbox-provider sender requirements",
    check: "sender-requirements",
    records: [],
    issues: [],
    sources: ["google_senders", "yahoo_senders"],
    facts: ["overallStatus", "passedCount", "failedCount", "summary"],
    generator: null
  }),
  concern({
    key: "webSecurity",
    title: "Web security",
    check: "headers",
    records: ["security.web.", "security.headers.", "security.csp"],
    issues: ["https_", "hsts_", "xcto_", "frame_", "referrer_", "csp_"],
    sources: ["rfc6797", "rfc7034", "csp3", "fetch_nosniff", "referrer_policy"],
    facts: [
      "url",
      "finalUrl",
      "statusCode",
      "httpsAvailable",
      "headerFetchTimedOut",
      "missing",
      "warnings",
      "note",
      "fetchError",
      "certificateError"
    ],
    generator: "POST /security-headers/generate"
  })
]

export const concernKeys = concerns.map((c) => c.key)

/** The concern that owns a score record id, by prefix. */
export const concernOfRecord = (recordId: string): Concern | undefined =>
  concerns.find((c) => c.records.some((prefix) => recordId.startsWith(prefix)))

/** The concern that owns a catalogue issue id by prefix, else the quick score (never lost). */
export const concernOfIssue = (issueId: string): Concern =>
  concerns.find((c) => c.issues.some((prefix) => issueId.startsWith(prefix))) ?? concerns[0]!
