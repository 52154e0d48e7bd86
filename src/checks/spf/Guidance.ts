/**
 * What a domain owner does about each SPF issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). SPF is one TXT record at the domain itself listing every server allowed to
 * send its mail (RFC 7208); the providers' notes name the include each of them needs.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /email/spf/generate"

/** The include each provider documents, for the steps that list senders. */
const SENDERS = {
  "google-workspace": "Mail sent through Google Workspace needs include:_spf.google.com.",
  "microsoft-365": "Mail sent through Microsoft 365 needs include:spf.protection.outlook.com.",
  "route53-ses":
    "Amazon SES sends from its own MAIL FROM domain by default: set a custom MAIL FROM subdomain (SES > Verified identities > your domain > Custom MAIL FROM domain) and publish the MX and the SPF record v=spf1 include:amazonses.com ~all that SES shows there, so SPF aligns with your From for DMARC.",
  cloudflare:
    "Cloudflare DNS holds the record; Cloudflare Email Routing, if used, needs include:_spf.mx.cloudflare.net."
} as const

export const guidance = {
  spf_missing: guide({
    why: "Without SPF, receivers cannot tell your mail servers from a forger's. Gmail, Yahoo and Microsoft now junk or reject unauthenticated mail, so your own mail suffers too.",
    steps: [
      "List every service that sends mail with your domain in the From: your mailbox provider, newsletter tool, invoicing system, web shop, ticketing system.",
      "Write one TXT record at the domain that starts with v=spf1, names each of those (an include for a provider, ip4/ip6 for your own servers) and ends in ~all.",
      "Publish it at the domain itself (host @ or blank), as the only TXT record starting with v=spf1.",
      "After a few weeks of DMARC reports show all your mail passing, change ~all to -all."
    ],
    providers: SENDERS,
    record: '{domain} TXT "v=spf1 include:_spf.google.com ~all"',
    generator: GENERATOR,
    references: ["rfc7208", "google_senders"]
  }),
  spf_invalid: guide({
    why: "The SPF record has an error, so receivers ignore it: your mail is treated as if you had no SPF, and fails DMARC wherever DKIM does not carry it.",
    steps: [
      "Read the error the report shows for the SPF record (its position in the record is given).",
      "Correct the mistake: common ones are a missing space, 'ip4:' with an IPv6 address, a mechanism written twice, or text after 'all'.",
      "Keep exactly one record starting with v=spf1, then scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_multiple_records: guide({
    why: "The domain publishes more than one SPF record. Receivers then apply none of them, so SPF protects nothing and your mail fails SPF everywhere.",
    steps: [
      "List the TXT records at the domain that start with v=spf1.",
      "Combine their mechanisms into one record (each include and address once, one 'all' at the end).",
      "Publish the combined record and delete the others."
    ],
    providers: {
      cloudflare:
        "DNS > Records, filter on TXT: each v=spf1 line is a separate record; edit one, delete the rest.",
      "generic-dns":
        "Some panels add an SPF record when you activate a service: that is often where the second one comes from."
    },
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_too_many_lookups: guide({
    why: "Checking your SPF record takes more than the 10 DNS look-ups the standard allows, so strict receivers stop and treat it as broken: all your mail then fails SPF.",
    steps: [
      "Remove includes of services that no longer send for you.",
      "Replace a and mx mechanisms with the ip4/ip6 addresses of those servers when they rarely change.",
      "If still over 10, move the senders of one service to a subdomain (for example news.{domain}) with its own SPF record, or replace a nested include by the addresses it lists and review them regularly.",
      "Scan again: the report counts the look-ups."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_too_many_void_lookups: guide({
    why: "The SPF record points at names that do not exist. After two such dead ends receivers treat the whole record as broken.",
    steps: [
      "Find the terms the report marks as void (an include, a or mx naming a domain without records).",
      "Remove them, or correct a misspelt name.",
      "Scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_plus_all: guide({
    why: "The record ends in +all, which declares every server on the internet allowed to send as you. It is worse than no SPF: forged mail passes.",
    steps: [
      "List the services that really send your mail, as for a new record.",
      "Replace +all with ~all, with those services named before it.",
      "Move to -all once DMARC reports show all your mail passing."
    ],
    providers: SENDERS,
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_neutral_all: guide({
    why: "The record ends in ?all or has no 'all' at all, telling receivers nothing about servers it does not list: forged mail is treated as if you had no SPF.",
    steps: [
      "End the record with ~all now.",
      "Change it to -all once DMARC reports show every legitimate sender passing."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_softfail_all: guide({
    why: "The ~all term asks receivers to accept but mark mail from unlisted servers. With an enforcing DMARC policy this matters little; without one, some receivers still deliver forged mail.",
    steps: [
      "Check in DMARC aggregate reports that all your legitimate mail passes SPF or DKIM.",
      "Then change ~all at the end of the record to -all."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_lookups_near_limit: guide({
    why: "The SPF record is close to the limit of 10 look-ups. One more service, or a provider changing its own record, pushes it over and breaks SPF for all your mail without any change by you.",
    steps: [
      "Remove includes of services you no longer use.",
      "Replace a and mx mechanisms with ip4/ip6 addresses where the servers rarely change.",
      "Keep at least two look-ups spare for the next service you add."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_loop: guide({
    why: "The SPF record includes itself, directly or through another record, so checking it never ends: receivers stop with an error and all your mail fails SPF.",
    steps: [
      "Follow the include chain the report shows to the term that points back.",
      "Remove that include or redirect (a domain never needs to include itself), then scan again."
    ],
    references: ["rfc7208"]
  }),
  spf_include_broken: guide({
    why: "One of the SPF record's includes points at a domain with no usable SPF record. Receivers then give up on your whole record, so your own mail fails SPF.",
    steps: [
      "Find the broken include in the report.",
      "If the service still sends for you, correct the name (check the provider's documentation; typos are common).",
      "If it no longer sends for you, remove the include."
    ],
    references: ["rfc7208"]
  }),
  spf_include_pass_all: guide({
    why: "One of the included records allows every server on the internet, so through it your own record does too: forged mail passes SPF.",
    steps: [
      "Find the include the report names.",
      "Remove it, or ask its owner to correct their record; replace it by the exact addresses that service sends from if needed."
    ],
    references: ["rfc7208"]
  }),
  spf_mx_too_many: guide({
    why: "The mx term in the SPF record resolves to more than 10 mail servers, which the standard forbids: receivers treat the record as broken.",
    steps: [
      "Find which of the mail servers actually send mail (receiving-only servers need not be listed).",
      "Replace mx with ip4/ip6 terms for those senders, or with the include their provider documents."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_ptr_mechanism: guide({
    why: "The record uses the ptr mechanism, which the standard says not to use: it is slow and unreliable, and some receivers skip it, so mail from the servers it was meant to cover may fail.",
    steps: [
      "Find the servers ptr was meant to cover.",
      "Replace ptr with their ip4/ip6 addresses or an a term naming them."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  }),
  spf_answer_too_large: guide({
    why: "The domain's TXT records together are too large for an ordinary DNS answer. Receivers whose resolvers do not retry over TCP cannot read the SPF record and defer or reject your mail.",
    steps: [
      "Shorten the SPF record: merge neighbouring ip4 addresses into ranges, drop unused terms.",
      "Remove TXT records at the domain that are no longer needed (old site verifications are common).",
      "Scan again: the report shows the answer's size."
    ],
    generator: GENERATOR,
    references: ["rfc7208"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
